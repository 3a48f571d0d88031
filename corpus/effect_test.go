package corpus

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// effectEntry is one script of corpus/effect/manifest.json.
type effectEntry struct {
	Name    string   `json:"name"`
	Repo    string   `json:"repo"`
	Commit  string   `json:"commit"`
	Dir     string   `json:"dir"`
	Script  string   `json:"script"`
	Fix     []string `json:"fix"`
	Args    []string `json:"args"`
	Config  string   `json:"config"`
	Warmup  int      `json:"warmup"`
	Measure int      `json:"measure"`
}

// TestEffectManifest checks what the effect harness (corpus/effect, run on
// a GPU machine, not in CI) relies on: every public script names a
// repository and a full commit, every entry a script, a configuration and a
// measuring window; the corpus/examples entries exist; and the harness's
// Python compiles and can print the table of a recorded run.
func TestEffectManifest(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("effect", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []effectEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	public := 0
	names := map[string]bool{}
	commit := regexp.MustCompile(`^[0-9a-f]{40}$`)
	for _, e := range entries {
		if e.Name == "" || names[e.Name] {
			t.Errorf("entry %+v: empty or repeated name", e)
		}
		names[e.Name] = true
		if e.Script == "" || e.Config == "" || e.Warmup <= 0 || e.Measure <= 0 {
			t.Errorf("%s: needs a script, a config and a measuring window", e.Name)
		}
		if e.Repo == "gpuopt" {
			if _, err := os.Stat(filepath.Join(e.Dir, e.Script)); err != nil {
				t.Errorf("%s: %v", e.Name, err)
			}
			continue
		}
		public++
		if !strings.Contains(e.Repo, "/") || !commit.MatchString(e.Commit) {
			t.Errorf("%s: a public script needs owner/repo and a full commit, got %q %q", e.Name, e.Repo, e.Commit)
		}
	}
	if public < 6 {
		t.Errorf("%d public scripts, want at least 6", public)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed: %v", err)
	}
	for _, f := range []string{"effect/effect.py", "effect/shim/sitecustomize.py", "effect/shim/effect_synth.py"} {
		if out, err := exec.Command(py, "-m", "py_compile", f).CombinedOutput(); err != nil {
			t.Errorf("%s does not compile: %v\n%s", f, err, out)
		}
	}
	// A recorded run (two variants of one script) prints a table row.
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl")
	lines := `{"name": "mnist-cnn", "variant": "orig", "ms_per_step": 40.0, "train_loss": 1.0, "peak_mem_mb": 200}
{"name": "mnist-cnn", "variant": "gpuopt", "found": ["AMP004:41", "LOAD001:109"], "left": [], "ms_per_step": 10.0, "train_loss": 1.05, "peak_mem_mb": 150}
{"name": "mnist-cnn", "variant": "byhand", "ms_per_step": 8.0, "train_loss": 1.02, "peak_mem_mb": 150}
{"name": "mnist-cnn", "variant": "orig2", "ms_per_step": 40.0, "train_loss": 1.1, "peak_mem_mb": 200}
`
	if err := os.WriteFile(rec, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-B", "effect/effect.py", "--table", rec).CombinedOutput()
	if err != nil {
		t.Fatalf("effect.py --table: %v\n%s", err, out)
	}
	for _, want := range []string{"| mnist-cnn | 40.00 | 10.00 (4.00×) | 8.00 (5.00×) | 0.80 |", "yes, yes", "AMP004 LOAD001",
		"median gpuopt speed-up 4.00×"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// What the fix applied is read from its summary, later rounds included
	// (MEM006 fires only once AMP004's autocast is in).
	out, err = exec.Command(py, "-B", "-c", `import sys; sys.path.insert(0, "effect"); import effect
print(effect.applied_codes("Fixed 5 findings in 1 file (AMP004 ×2, MEM006 ×2, XFER002 ×1); 5 remain (5 to do by hand)."))
print(effect.fixed_codes({"found": ["AMP004:1"], "left": [], "applied": ["AMP004", "MEM006", "MEM006"]}))`).CombinedOutput()
	if err != nil {
		t.Fatalf("effect.applied_codes: %v\n%s", err, out)
	}
	if want := "['AMP004', 'AMP004', 'MEM006', 'MEM006', 'XFER002']\nAMP004 MEM006×2\n"; string(out) != want {
		t.Errorf("applied codes: got %q, want %q", out, want)
	}
	// Repeated runs: a row shows their means, and the original's spread
	// over its runs widens the loss noise band.
	rep := filepath.Join(t.TempDir(), "rep.jsonl")
	repLines := `{"name": "s", "variant": "orig", "ms_per_step": 40.0, "train_loss": 1.0}
{"name": "s", "variant": "gpuopt", "ms_per_step": 10.0, "train_loss": 1.25}
{"name": "s", "variant": "orig2", "ms_per_step": 40.0, "train_loss": 1.05}
{"name": "s", "variant": "orig", "ms_per_step": 20.0, "train_loss": 1.3}
{"name": "s", "variant": "gpuopt", "ms_per_step": 20.0, "train_loss": 1.25}
`
	if err := os.WriteFile(rep, []byte(repLines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(py, "-B", "effect/effect.py", "--table", rep).CombinedOutput()
	if err != nil {
		t.Fatalf("effect.py --table: %v\n%s", err, out)
	}
	// orig 30 ms (n=2), gpuopt 15 ms (n=2): 2×. gpuopt's loss 1.25 is 0.15
	// from the mean of orig (1.15) and orig2 (1.05): outside their distance
	// (0.1), inside the spread of the original's three runs (0.3).
	for _, want := range []string{"| s | 30.00 (n=2) | 15.00 (n=2) (2.00×) |", "yes"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("table of repeated runs lacks %q:\n%s", want, out)
		}
	}

	// Ablations and repeated variants, for A/B runs.
	out, err = exec.Command(py, "-B", "-c", `import sys; sys.path.insert(0, "effect"); import effect
print(effect.ignored("gpuopt"), effect.ignored("gpuopt-AMP004+XFER002"), effect.ignored("gpuopt-AMP004@2"))
print(effect.seed_offset("orig"), effect.seed_offset("orig2"), effect.seed_offset("orig@3"), effect.seed_offset("gpuopt-AMP004@2"))
print(effect.ab_summary([{"name": "s", "variant": v, "ms_per_step": t} for v, t in
    (("orig", 10.0), ("gpuopt", 5.0), ("orig", 12.0), ("gpuopt-AMP004", 11.0), ("gpuopt", 6.0))]))`).CombinedOutput()
	if err != nil {
		t.Fatalf("effect ablations: %v\n%s", err, out)
	}
	for _, want := range []string{"[] ['AMP004', 'XFER002'] ['AMP004']", "0 1 3 2", "s orig: mean 11.00 ms/step over 2 runs; runs 10.00 12.00",
		"s gpuopt: mean 5.50 ms/step over 2 runs (2.00× orig); runs 5.00 6.00", "s gpuopt-AMP004: mean 11.00 ms/step over 1 runs (1.00× orig)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("A/B summary lacks %q:\n%s", want, out)
		}
	}
}

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuopt/gpuopt/rewrite"
)

// runEnv is run with extra environment variables.
func runEnv(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(gpuoptBin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GPUOPT_TARGET_GPU=", "NO_COLOR=", "FORCE_COLOR="), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// The default format is ruff's "full": the finding's line, the source with
// the span underlined, the fix's title; piped, no escape codes.
func TestCheckFullFormat(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), xgbSource)
	out, _, code := run(t, dir, "", "check", "train.py")
	want := `train.py:2:26: XGB002 [*] tree_method="gpu_hist" is deprecated since XGBoost 2.0: use tree_method="hist" with device="cuda"
  |
1 | import xgboost as xgb
2 | params = {"tree_method": "gpu_hist", "max_depth": 6}  # keep me
  |                          ^^^^^^^^^^ XGB002
3 | X = [[1.0]]
  |
  = help: Use tree_method="hist", device="cuda"
`
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d; want the output to start with\n%s\ngot\n%s", code, want, out)
	}
	if !strings.Contains(out, "(unsafe fix: `gpuopt fix --unsafe-fixes`)") || !strings.HasSuffix(out, "Found 2 findings.\n[*] 1 fixable with `gpuopt fix`.\n1 more fixable with `gpuopt fix --unsafe-fixes` (may change numerics; see `gpuopt rule CODE`).\n") {
		t.Errorf("help or summary missing:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("escape codes in piped output:\n%q", out)
	}
}

func TestCheckConciseFormat(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), xgbSource)
	for _, format := range []string{"concise", "text"} {
		out, _, code := run(t, dir, "", "check", "--output-format", format, "train.py")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 1 || len(lines) != 5 || !regexp.MustCompile(`^train\.py:2:26: XGB002 \[\*\] `).MatchString(lines[0]) ||
			!strings.HasPrefix(lines[1], "train.py:4:10: XGB001 train on a QuantileDMatrix") || lines[2] != "Found 2 findings." {
			t.Errorf("%s: exit %d\n%s", format, code, out)
		}
	}
	if _, errOut, code := run(t, dir, "", "check", "--output-format", "pretty", "train.py"); code != 2 || !strings.Contains(errOut, "full, concise, json, sarif or github") {
		t.Errorf("unknown format: exit %d %s", code, errOut)
	}
}

// Colours: FORCE_COLOR forces them on a pipe; NO_COLOR wins over a
// terminal but not over FORCE_COLOR; nothing set and no terminal: none.
func TestColourEnvironment(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), xgbSource)
	out, _, _ := runEnv(t, dir, []string{"FORCE_COLOR=1"}, "check", "train.py")
	if !strings.Contains(out, "\x1b[1;31mXGB002\x1b[0m") {
		t.Errorf("FORCE_COLOR=1: no colour\n%q", out)
	}
	out, _, _ = runEnv(t, dir, []string{"NO_COLOR=1"}, "check", "--output-format", "concise", "train.py")
	if strings.Contains(out, "\x1b[") {
		t.Errorf("NO_COLOR: colour\n%q", out)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false}, // a buffer is no terminal
		{map[string]string{"FORCE_COLOR": "1"}, true},
		{map[string]string{"FORCE_COLOR": "0"}, false},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, true},
		{map[string]string{"NO_COLOR": "1"}, false},
	} {
		if got := wantColor(&buf, env(c.env)); got != c.want {
			t.Errorf("wantColor(%v) = %v", c.env, got)
		}
	}
}

func TestStatisticsExitZeroShowFixes(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.py"), xgbSource)
	write(t, filepath.Join(dir, "b.py"), xgbSource)
	out, _, code := run(t, dir, "", "check", "--statistics", ".")
	if code != 1 || !strings.HasPrefix(out, "2  XGB001      xgboost-quantile-dmatrix\n2  XGB002  [*] xgboost-gpu-hist\nFound 4 findings.\n") {
		t.Errorf("--statistics: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, dir, "", "check", "--statistics", "--output-format", "json", ".")
	if !strings.Contains(out, `"code": "XGB002"`) || !strings.Contains(out, `"count": 2`) || !strings.Contains(out, `"fixable": true`) {
		t.Errorf("--statistics json:\n%s", out)
	}
	if _, _, code := run(t, dir, "", "check", "--exit-zero", "."); code != 0 {
		t.Errorf("--exit-zero with findings: exit %d", code)
	}
	if _, _, code := run(t, dir, "", "check", "--exit-zero", "missing.py"); code != 2 {
		t.Errorf("--exit-zero keeps errors: exit %d", code)
	}
	out, _, _ = run(t, dir, "", "check", "--show-fixes", "--select", "XGB002", "a.py")
	if !strings.Contains(out, "ℹ Safe fix\n2 - params = {\"tree_method\": \"gpu_hist\", \"max_depth\": 6}  # keep me\n  + params = {\"tree_method\": \"hist\", \"device\": \"cuda\", \"max_depth\": 6}  # keep me\n") {
		t.Errorf("check --show-fixes:\n%s", out)
	}
	// A fix with edits far apart shows one hunk per place.
	write(t, filepath.Join(dir, "amp.py"), "import torch\nfrom torch.cuda.amp import autocast\n"+strings.Repeat("x = 1\n", 120)+"with autocast():\n    pass\n")
	out, _, _ = run(t, dir, "", "check", "--show-fixes", "--select", "AMP001", "amp.py")
	if !strings.Contains(out, "    ℹ Safe fix\n  2 - from torch.cuda.amp import autocast\n    + from torch import autocast\n123 - with autocast():\n    + with autocast(\"cuda\", dtype=torch.float16):\n") {
		t.Errorf("check --show-fixes, two hunks:\n%s", out)
	}
	os.Remove(filepath.Join(dir, "amp.py"))
	_, errOut, code := run(t, dir, "", "fix", "--show-fixes", "--exit-zero", ".")
	if code != 0 || !strings.Contains(errOut, "Fixed 2 findings:\n- a.py:\n    1 × XGB002 (xgboost-gpu-hist)\n- b.py:\n") {
		t.Errorf("fix --show-fixes --exit-zero: exit %d\n%s", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := run(t, ".", "", "--version")
	if code != 0 || !regexp.MustCompile(`^gpuopt \S+ \(.+\)\n$`).MatchString(out) {
		t.Errorf("--version: exit %d %q", code, out)
	}
	out, _, _ = run(t, ".", "", "version")
	if !strings.Contains(out, "built with go") {
		t.Errorf("version: %q", out)
	}
	// A release build stamps version and commit with -ldflags -X.
	bin := filepath.Join(t.TempDir(), "gpuopt")
	ld := "-X main.version=1.2.3 -X main.commit=0123456789abcdef0123456789abcdef01234567"
	if b, err := exec.Command("go", "build", "-ldflags", ld, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, b)
	}
	b, err := exec.Command(bin, "--version").Output()
	if err != nil || string(b) != "gpuopt 1.2.3 (0123456789ab)\n" {
		t.Errorf("stamped --version: %v %q", err, b)
	}
}

func frame(t *testing.T, src string, start, end int, code string) string {
	t.Helper()
	s := rewrite.NewSource("t.py", []byte(src))
	l := locate(s, start)
	var buf bytes.Buffer
	writeFull(&buf, []shown{{path: "t.py", src: s, start: start, end: end, line: l.Line, col: l.Column, code: code, msg: "m"}}, style{}, false)
	return buf.String()
}

// A span over several lines underlines each line's text; a long one is
// elided in the middle; tabs and wide characters keep the carets aligned.
func TestFrameSpans(t *testing.T) {
	src := "a = 1\nfor x in y:\n    f(x)\n    g(x)\nb = 2\n"
	got := frame(t, src, strings.Index(src, "for"), strings.Index(src, "b = 2"), "VEC001")
	want := `t.py:2:1: VEC001 m
  |
1 | a = 1
2 | for x in y:
  | ^^^^^^^^^^^
3 |     f(x)
  |     ^^^^
4 |     g(x)
  |     ^^^^ VEC001
5 | b = 2
  |

`
	if got != want {
		t.Errorf("multi-line span:\n%s\nwant\n%s", got, want)
	}
	var long strings.Builder
	long.WriteString("for x in y:\n")
	for i := 0; i < 10; i++ {
		long.WriteString("    f(x)\n")
	}
	got = frame(t, long.String(), 0, long.Len()-1, "VEC001")
	if strings.Count(got, "^") != 11+4*4 || !strings.Contains(got, "\n.. |\n") || !strings.Contains(got, "11 |     f(x)\n   |     ^^^^ VEC001") {
		t.Errorf("elided span:\n%s", got)
	}
	src = "\tx = '漢字'.cuda()\n"
	got = frame(t, src, strings.Index(src, ".cuda"), strings.Index(src, "()")+2, "XFER001")
	if !strings.Contains(got, "1 |     x = '漢字'.cuda()\n  |               ^^^^^^^ XFER001\n") {
		t.Errorf("tab and wide characters:\n%s", got)
	}
	// An empty span gets one caret.
	if got = frame(t, "x = 1\n", 4, 4, "E999"); !strings.Contains(got, "1 | x = 1\n  |     ^ E999\n") {
		t.Errorf("empty span:\n%s", got)
	}
}

// The progress line appears only once a run is slower than the delay, and
// is erased at the end.
func TestProgressLine(t *testing.T) {
	var fast bytes.Buffer
	p := newProgress(&fast, time.Hour, 10, "checked")
	p.step()(3)
	p.stop()
	if fast.Len() != 0 {
		t.Errorf("a fast run printed %q", fast.String())
	}
	var slow bytes.Buffer
	p = newProgress(&slow, time.Millisecond, 10, "checked")
	p.step()(7)
	time.Sleep(50 * time.Millisecond)
	p.stop()
	if s := slow.String(); !strings.Contains(s, "checked 7/10 files") || !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("a slow run printed %q", s)
	}
	var nothing *progressLine // not a terminal
	if nothing.step() != nil {
		t.Error("a nil progress line has a callback")
	}
	nothing.stop()
}

// Identical findings (a pinned loader assigned twice) are reported once.
func TestIdenticalFindingsOnce(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "dup.py"), `import torch
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
model = model.cuda()
for x, y in loader:
    x = x.cuda()
    out = model(x)
`)
	out, _, _ := run(t, dir, "", "check", "--output-format", "concise", "--select", "XFER002", "dup.py")
	if strings.Count(out, "XFER002") != 1 {
		t.Errorf("want one XFER002:\n%s", out)
	}
}

// --force-exclude applies the configuration's exclude patterns to files
// named on the command line, as pre-commit names them.
func TestForceExclude(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\nexclude = [\"legacy_*.py\", \"notebooks/\"]\n")
	for _, name := range []string{"legacy_a.py", "notebooks/deep/b.py", "train.py"} {
		write(t, filepath.Join(dir, name), xgbSource)
	}
	files := []string{"legacy_a.py", "notebooks/deep/b.py", "train.py"}
	out, _, _ := run(t, dir, "", append([]string{"check", "--output-format", "concise"}, files...)...)
	if !strings.Contains(out, "legacy_a.py:") || !strings.Contains(out, "notebooks/deep/b.py:") {
		t.Errorf("files named explicitly are checked without --force-exclude:\n%s", out)
	}
	out, _, _ = run(t, dir, "", append([]string{"check", "--output-format", "concise", "--force-exclude"}, files...)...)
	if strings.Contains(out, "legacy_a.py") || strings.Contains(out, "notebooks/") || !strings.Contains(out, "train.py:2:26: XGB002") {
		t.Errorf("--force-exclude:\n%s", out)
	}
	_, _, code := run(t, dir, "", "fix", "--force-exclude", "legacy_a.py")
	if b, _ := os.ReadFile(filepath.Join(dir, "legacy_a.py")); string(b) != xgbSource || code != 0 {
		t.Errorf("fix --force-exclude rewrote an excluded file (exit %d):\n%s", code, b)
	}
	fixed, _, _ := run(t, dir, xgbSource, "fix", "--force-exclude", "-", "--stdin-filename", "legacy_a.py")
	if !strings.Contains(fixed, `"tree_method": "hist"`) {
		t.Errorf("stdin is never dropped:\n%s", fixed)
	}
}

// In a notebook the frame shows the finding's cell, numbered from the
// cell's first line, and the fix's edits in other cells are counted.
func TestFullFormatNotebook(t *testing.T) {
	out, _, _ := run(t, "../../corpus/AMP005", "", "check", "--show-fixes", "--target-gpu", "", "notebook_cells.ipynb")
	for _, want := range []string{
		"notebook_cells.ipynb:cell 4:2:13: OPT001 [*] AdamW over CUDA parameters without fused=True",
		"1 | model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()\n2 | optimizer = torch.optim.AdamW(model.parameters())\n  |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ OPT001\n",
		"2 - optimizer = torch.optim.AdamW(model.parameters())\n  + optimizer = torch.optim.AdamW(model.parameters(), fused=True)\n",
		"notebook_cells.ipynb:cell 6:1:1: AMP005",
		"ℹ the fix also changes 1 place in other cells\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

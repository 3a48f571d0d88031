package corpus

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// Notebook cases (corpus/<CODE>/*.ipynb) work as the .py cases do: a code
// cell line carrying `# want: CODE` must produce exactly those findings,
// <name>.ipynb.golden is the notebook after the fix (none: the fix must
// leave the file byte for byte as it was), and a `# gpuopt-env:` line in a
// code cell sets the environment. Every fixed notebook must pass the real
// nbformat's validation, keep every cell's outputs and metadata, compile,
// and be a fixed point.

func runNotebookCase(t *testing.T, code, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := notebook.Parse(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	mod := notebook.Build(nb.Cells)
	env := caseEnv(t, mod.Src)
	sel := patterns.Selection{Select: []string{code}}
	f := mod.Parse(path)
	if f.HasSyntaxErrors() {
		t.Fatalf("case does not parse: %s", f.SyntaxError())
	}
	type place struct{ cell, line int }
	got := map[place][]string{}
	for _, fd := range mod.Findings(f, patterns.Run(f, sel, env)) {
		cell, line, _ := mod.Position(fd.Start)
		p := place{notebook.CellNumber(cell), line + 1}
		got[p] = append(got[p], fd.Code)
	}
	want := map[place][]string{}
	for i, c := range nb.Cells {
		if c.Kind != "code" {
			continue
		}
		for l, text := range strings.Split(c.Source, "\n") {
			if m := wantComment.FindStringSubmatch(text); m != nil {
				for _, w := range strings.Split(m[1], ",") {
					if w = strings.TrimSpace(w); w != "" {
						p := place{notebook.CellNumber(i), l + 1}
						want[p] = append(want[p], w)
					}
				}
			}
		}
	}
	for p := range want {
		if _, ok := got[p]; !ok {
			got[p] = nil
		}
	}
	for p, g := range got {
		if g, w := sorted(g), sorted(want[p]); strings.Join(g, ",") != strings.Join(w, ",") {
			t.Errorf("%s:cell %d:%d: got findings %v, want %v", path, p.cell, p.line, g, w)
		}
	}

	fixAll := func(nb *notebook.Notebook) ([]byte, notebook.FixResult) {
		res := notebook.Fix(path, nb.Cells, func(ff *rewrite.File) []rewrite.Finding { return patterns.Run(ff, sel, env) },
			func(fd rewrite.Finding) bool { return fd.Fix != nil && fd.Fix.Applicability != rewrite.Hint })
		out, err := nb.Render(res.Cells)
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		return out, res
	}
	out, res := fixAll(nb)
	golden := path + ".golden"
	if *update {
		if string(out) != string(raw) {
			os.WriteFile(golden, out, 0o644)
		} else {
			os.Remove(golden)
		}
		return
	}
	wantOut, err := os.ReadFile(golden)
	if os.IsNotExist(err) {
		wantOut = raw
	}
	if string(out) != string(wantOut) {
		t.Errorf("%s: fixed notebook differs from %s:\n%s", path, golden, rewrite.UnifiedDiff(path, wantOut, out))
	}
	if res.Dropped > 0 {
		t.Errorf("%s: %d fixes were dropped because they broke the notebook", path, res.Dropped)
	}
	fixed, err := notebook.Parse(path, out)
	if err != nil {
		t.Fatalf("the fixed notebook does not read back: %v", err)
	}
	if again, _ := fixAll(fixed); string(again) != string(out) {
		t.Errorf("%s: fix is not idempotent:\n%s", path, rewrite.UnifiedDiff(path, out, again))
	}
	if string(out) != string(raw) {
		validateNotebook(t, path, raw, out)
		compilePython(t, golden, notebook.Build(fixed.Cells).Src)
	}
}

var (
	nbPythonOnce sync.Once
	nbPython     string
)

// nbformatPython returns a python3 that imports nbformat (.ci/run installs
// Debian's python3-nbformat); the test fails without one.
func nbformatPython(t *testing.T) string {
	nbPythonOnce.Do(func() {
		for _, py := range []string{"python3", "/usr/bin/python3"} {
			if p, err := exec.LookPath(py); err == nil && exec.Command(p, "-c", "import nbformat").Run() == nil {
				nbPython = p
				return
			}
		}
	})
	if nbPython == "" {
		t.Fatal("no python3 with nbformat: install python3-nbformat (.ci/run does)")
	}
	return nbPython
}

// checkNotebook validates the fixed notebook with the real nbformat and
// checks that every original cell is still there, in order, with its
// type, metadata, outputs and execution count, and that the cells gpuopt
// added are code cells that never ran.
const checkNotebook = `
import sys, json, nbformat
nbformat.validate(nbformat.read(sys.argv[2], as_version=4))
# Cell data is compared as written: nbformat.read gives cells of a 4.5
# notebook that lacks ids random ones.
orig = json.load(open(sys.argv[1], encoding="utf-8"))
fixed = json.load(open(sys.argv[2], encoding="utf-8"))
assert fixed["metadata"] == orig["metadata"], "notebook metadata changed"
src = lambda c: c["source"] if isinstance(c["source"], str) else "".join(c["source"])
old = iter(orig["cells"])
for c in fixed["cells"]:
    if c.get("id", "").startswith("gpuopt-") or (c["cell_type"] == "code" and c.get("execution_count") is None and not c.get("outputs") and src(c).startswith("%load_ext")):
        assert c["cell_type"] == "code" and c["execution_count"] is None and c["outputs"] == [], c
        continue
    o = next(old)
    for k in ("cell_type", "metadata", "outputs", "execution_count", "id", "attachments"):
        assert o.get(k) == c.get(k), (k, o.get(k), c.get(k))
assert next(old, None) is None, "a cell was lost"
`

func validateNotebook(t *testing.T, name string, orig, fixed []byte) {
	t.Helper()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "orig.ipynb"), filepath.Join(dir, "fixed.ipynb")
	os.WriteFile(a, orig, 0o644)
	os.WriteFile(b, fixed, 0o644)
	if out, err := exec.Command(nbformatPython(t), "-c", checkNotebook, a, b).CombinedOutput(); err != nil {
		t.Errorf("%s: the fixed notebook fails nbformat's validation or lost cell data: %v\n%s", name, err, out)
	}
}

// TestNotebookMatchesScript checks corpus/examples/notebook_pipeline.ipynb
// against its script version notebook_pipeline.py (the same code, a
// "# %%" line before each cell's): an XGBoost pipeline and a PyTorch
// training loop whose model, optimizer and loader live in an earlier cell.
// Both must get the same findings, codes and positions (the script's line
// mapped to the cell's); the fixed notebook must pass nbformat, keep its
// cells' outputs, compile, and be a fixed point.
func TestNotebookMatchesScript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("examples", "notebook_pipeline.py"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("examples", "notebook_pipeline.ipynb")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := notebook.Parse(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	// The script's cells: the lines after each "# %%".
	type segment struct{ firstLine, cell int }
	var segs []segment
	lines := strings.Split(string(script), "\n")
	var bodies []string
	for i, l := range lines {
		if l == "# %%" {
			segs = append(segs, segment{firstLine: i + 1})
			bodies = append(bodies, "")
		} else if len(bodies) > 0 {
			bodies[len(bodies)-1] += l + "\n"
		}
	}
	k := 0
	for i, c := range nb.Cells {
		if c.Kind != "code" {
			continue
		}
		if k >= len(bodies) || c.Source != strings.TrimRight(bodies[k], "\n") {
			t.Fatalf("code cell %d is not the script's cell %d: regenerate the notebook from the script", notebook.CellNumber(i), k+1)
		}
		segs[k].cell = i
		k++
	}
	if k != len(segs) {
		t.Fatalf("the notebook has %d code cells, the script %d", k, len(segs))
	}

	gpu, _ := TargetGPU("h100")
	env := &patterns.Env{Versions: patterns.DefaultVersions, GPU: gpu, CPUCount: 8}
	analyze := func(f *rewrite.File) []rewrite.Finding { return patterns.Run(f, patterns.Selection{}, env) }
	wants := func(fd rewrite.Finding) bool {
		// AMP005's switch is a hint on this MLP (its gain depends on the
		// batch); applied here too, for where a module-level line lands.
		return fd.Fix != nil && (fd.Fix.Applicability == rewrite.Safe || fd.Fix.Applicability == rewrite.Unsafe || fd.Code == "AMP005")
	}
	var fromScript, fromNotebook []string
	pf := rewrite.Parse("notebook_pipeline.py", script)
	for _, fd := range analyze(pf) {
		line, col := pf.Src.Position(fd.Start)
		s := len(segs) - 1
		for s > 0 && segs[s].firstLine > line {
			s--
		}
		fromScript = append(fromScript, fmt.Sprintf("%s cell %d:%d:%d", fd.Code, notebook.CellNumber(segs[s].cell), line-segs[s].firstLine+1, col+1))
	}
	mod := notebook.Build(nb.Cells)
	nf := mod.Parse(path)
	for _, fd := range mod.Findings(nf, analyze(nf)) {
		cell, line, col := mod.Position(fd.Start)
		fromNotebook = append(fromNotebook, fmt.Sprintf("%s cell %d:%d:%d", fd.Code, notebook.CellNumber(cell), line+1, col+1))
	}
	if strings.Join(fromScript, "\n") != strings.Join(fromNotebook, "\n") {
		t.Errorf("findings differ:\nscript:\n%s\nnotebook:\n%s", strings.Join(fromScript, "\n"), strings.Join(fromNotebook, "\n"))
	}
	if len(fromNotebook) < 10 {
		t.Errorf("only %d findings: %v", len(fromNotebook), fromNotebook)
	}

	res := notebook.Fix(path, nb.Cells, analyze, wants)
	out, err := nb.Render(res.Cells)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) == string(raw) || res.Dropped > 0 {
		t.Fatalf("fix changed nothing or dropped %d fixes", res.Dropped)
	}
	validateNotebook(t, path, raw, out)
	fixed, err := notebook.Parse(path, out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fixed.Cells[1].Source, "%load_ext cudf.pandas") || len(fixed.Cells) != len(nb.Cells)+1 {
		t.Errorf("CUDF001 did not add its cell first: %q", fixed.Cells[1].Source)
	}
	if !strings.Contains(fixed.Cells[2].Source, "from torch.utils.data import DataLoader, TensorDataset\ntorch.set_float32_matmul_precision(\"high\")") {
		t.Errorf("the TF32 switch is not after the first cell's imports:\n%s", fixed.Cells[2].Source)
	}
	compilePython(t, path, notebook.Build(fixed.Cells).Src)
	again := notebook.Fix(path, fixed.Cells, analyze, wants)
	if out2, _ := fixed.Render(again.Cells); string(out2) != string(out) {
		t.Errorf("a second fix changes the notebook:\n%s", rewrite.UnifiedDiff(path, out, out2))
	}
}

package corpus

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

var update = flag.Bool("update", false, "rewrite .golden files")

var wantComment = regexp.MustCompile(`#\s*want:\s*([A-Z0-9, ]+)`)
var envComment = regexp.MustCompile(`(?m)^#\s*gpuopt-env:\s*(.*)$`)

// caseEnv reads the `# gpuopt-env:` line of a case.
func caseEnv(t *testing.T, src []byte) *patterns.Env {
	env := &patterns.Env{Versions: patterns.DefaultVersions, CPUCount: 16}
	m := envComment.FindSubmatch(src)
	if m == nil {
		return env
	}
	for _, kv := range strings.Fields(string(m[1])) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "target-gpu":
			g, ok := TargetGPU(v)
			if !ok {
				t.Fatalf("unknown target GPU %q", v)
			}
			env.GPU = g
		case "gpu-host":
			// gpuopt runs on the GPU host itself (a profile read from NVML).
			g, ok := TargetGPU(v)
			if !ok {
				t.Fatalf("unknown GPU %q", v)
			}
			g.Source = "nvml"
			env.GPU = g
		case "torch":
			env.Versions.Torch, _ = patterns.ParseVersion(v)
		case "xgboost":
			env.Versions.XGBoost, _ = patterns.ParseVersion(v)
		case "torch-floor":
			// the oldest torch the project declares (`torch>=1.12`)
			env.Versions.TorchFloor, _ = patterns.ParseVersion(v)
		case "cpus":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("cpus=%q: %v", v, err)
			}
			env.CPUCount = n
		default:
			t.Fatalf("unknown gpuopt-env key %q", k)
		}
	}
	return env
}

func TestCorpus(t *testing.T) {
	dirs, err := filepath.Glob("[A-Z]*[0-9]")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no corpus folders")
	}
	for _, dir := range dirs {
		code := filepath.Base(dir)
		if patterns.Lookup(code) == nil {
			t.Errorf("corpus folder %s names no rule", dir)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.py"))
		if len(files) == 0 {
			t.Errorf("%s has no cases", dir)
		}
		// corpus/<CODE>/<project>/*.py: the modules of one project, each
		// checked with the project index of its folder (values that cross
		// modules).
		modules, _ := filepath.Glob(filepath.Join(dir, "*", "*.py"))
		// corpus/<CODE>/<project>/<package>/*.py: a package of the
		// project (`models/`, imported as `from . import networks`).
		packaged, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.py"))
		modules = append(modules, packaged...)
		for _, path := range append(files, modules...) {
			t.Run(filepath.ToSlash(path), func(t *testing.T) { runCase(t, code, path) })
		}
		notebooks, _ := filepath.Glob(filepath.Join(dir, "*.ipynb"))
		for _, path := range notebooks {
			t.Run(filepath.ToSlash(path), func(t *testing.T) { runNotebookCase(t, code, path) })
		}
	}
}

func runCase(t *testing.T, code, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := caseEnv(t, src)
	if root := projectRoot(code, path); root != "" {
		env.Project = workspace.NewProject(root)
	}
	sel := patterns.Selection{Select: []string{code}}
	f := rewrite.Parse(path, src)
	if f.HasSyntaxErrors() && !strings.Contains(path, "syntax") {
		t.Fatalf("case does not parse: %s", f.SyntaxError())
	}
	// Findings must match the want comments, line by line.
	got := map[int][]string{}
	hints := false // some finding offers a hint's edit
	for _, fd := range patterns.Run(f, sel, env) {
		line := f.Src.LineOf(fd.Start) + 1
		got[line] = append(got[line], fd.Code)
		hints = hints || fd.Fix != nil && fd.Fix.Applicability == rewrite.Hint
	}
	want := map[int][]string{}
	for i := 0; i < f.Src.LineCount(); i++ {
		if m := wantComment.FindStringSubmatch(f.Src.LineText(i)); m != nil {
			for _, c := range strings.Split(m[1], ",") {
				if c = strings.TrimSpace(c); c != "" {
					want[i+1] = append(want[i+1], c)
				}
			}
		}
	}
	for line := range union(got, want) {
		g, w := sorted(got[line]), sorted(want[line])
		if strings.Join(g, ",") != strings.Join(w, ",") {
			t.Errorf("%s:%d: got findings %v, want %v", path, line, g, w)
		}
	}

	// The fixed file must match the golden file, parse, and be a fixed point.
	fixAll := func(file *rewrite.File) rewrite.FixResult {
		return rewrite.FixFile(file, func(ff *rewrite.File) []rewrite.Finding { return patterns.Run(ff, sel, env) },
			func(fd rewrite.Finding) bool { return fd.Fix != nil && fd.Fix.Applicability != rewrite.Hint })
	}
	res := fixAll(f)
	golden := path + ".golden"
	hintFixAll := func(file *rewrite.File) rewrite.FixResult {
		return rewrite.FixFile(file, func(ff *rewrite.File) []rewrite.Finding { return patterns.Run(ff, sel, env) },
			func(fd rewrite.Finding) bool { return fd.Fix != nil })
	}
	if *update {
		if string(res.Output) != string(src) {
			os.WriteFile(golden, res.Output, 0o644)
		} else {
			os.Remove(golden)
		}
		checkHints(t, path, f, res.Output, hintFixAll, hints)
		return
	}
	wantOut, err := os.ReadFile(golden)
	if os.IsNotExist(err) {
		wantOut = src
	}
	if string(res.Output) != string(wantOut) {
		t.Errorf("%s: fixed output differs from %s:\n%s", path, golden, rewrite.UnifiedDiff(path, wantOut, res.Output))
	}
	if res.Dropped > 0 {
		t.Errorf("%s: %d fixes were dropped because they broke the file", path, res.Dropped)
	}
	fixed := rewrite.Parse(path, res.Output)
	if fixed.HasSyntaxErrors() && !f.HasSyntaxErrors() {
		t.Errorf("%s: fixed output has a %s", path, fixed.SyntaxError())
	}
	if again := fixAll(fixed); string(again.Output) != string(res.Output) {
		t.Errorf("%s: fix is not idempotent:\n%s", path, rewrite.UnifiedDiff(path, res.Output, again.Output))
	}
	if f.Rejected() && string(res.Output) != string(src) {
		t.Errorf("%s: a file CPython rejects was rewritten", path)
	}
	if !f.HasSyntaxErrors() && !f.Rejected() {
		compilePython(t, golden, res.Output) // a case that CPython rejects cannot compile fixed
	}
	checkHints(t, path, f, res.Output, hintFixAll, hints)
}

// checkHints compares the file with every code action applied, hints
// included, to <case>.py.hint.golden when that file exists (-update writes
// it wherever the hints change the file beyond the fixes).
func checkHints(t *testing.T, path string, f *rewrite.File, fixed []byte, fixAll func(*rewrite.File) rewrite.FixResult, hints bool) {
	golden := path + ".hint.golden"
	if _, err := os.Stat(golden); os.IsNotExist(err) && !hints {
		return // no hint offers an edit: nothing beyond the batch fix
	}
	res := fixAll(f)
	if *update {
		if string(res.Output) != string(fixed) {
			os.WriteFile(golden, res.Output, 0o644)
		} else {
			os.Remove(golden)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if os.IsNotExist(err) {
		// No hint golden: the code actions, hints included, must leave
		// the file as the batch fix does (the hints' edits add nothing).
		if string(res.Output) != string(fixed) {
			t.Errorf("%s: the hints' code actions change the file, and there is no %s (go test ./corpus -update writes it):\n%s", path, golden, rewrite.UnifiedDiff(path, fixed, res.Output))
		}
		return
	}
	if string(res.Output) != string(want) {
		t.Errorf("%s: output with hints applied differs from %s:\n%s", path, golden, rewrite.UnifiedDiff(path, want, res.Output))
	}
	if res.Dropped > 0 {
		t.Errorf("%s: %d code actions were dropped because they broke the file", path, res.Dropped)
	}
	if again := fixAll(rewrite.Parse(path, res.Output)); string(again.Output) != string(res.Output) {
		t.Errorf("%s: code actions are not idempotent:\n%s", path, rewrite.UnifiedDiff(path, res.Output, again.Output))
	}
	compilePython(t, golden, res.Output)
}

// compilePython byte-compiles the fixed output with the real CPython.
func compilePython(t *testing.T, name string, src []byte) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to check that fixed files compile: %v", err)
	}
	cmd := exec.Command(py, "-c", "import sys; compile(sys.stdin.read(), sys.argv[1], 'exec')", name)
	cmd.Stdin = strings.NewReader(string(src))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("fixed %s does not compile: %v\n%s", name, err, out)
	}
}

func union(a, b map[int][]string) map[int]bool {
	out := map[int]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

// projectRoot is the project folder of a project case's module
// (corpus/<CODE>/<project>/, also for a module of a package in it), ""
// for a case of its own.
func projectRoot(code, path string) string {
	dir := filepath.Dir(path)
	for range 2 {
		if filepath.Base(filepath.Dir(dir)) == code {
			return dir
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

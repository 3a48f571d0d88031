package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// exampleCodes lists, for every realistic script in corpus/examples, the
// rule codes a check with every rule (the opt-in ones too) on an H100
// target must report. The
// list is exact: a rule that stops firing or starts firing on one of these
// scripts is a regression to look at (then update the list deliberately).
var exampleCodes = map[string][]string{
	// No CACHE001: its positions and mask are built on the device, which
	// measured 1.00-1.02× per step against cached buffers. OPT004 although
	// its GPT is narrow (d 256): it attends, and compiled it trained
	// 1.39-1.43× faster on an H100 (corpus/gpu/opt004_tinygpt.py).
	"gpt_lm.py": {"AMP001", "AMP002", "AMP003", "CACHE002", "LOAD003",
		"MEM002", "OPT001", "OPT004", "XFER002"},
	// No SYNC001: its evaluate() loop is the forward and the copies, with
	// no host work per step for the deferred copy to overlap with.
	"hf_finetune.py": {"AMP004", "AMP005", "MEM003", "OPT001", "OPT004", "SYNC002"},
	// No SYNC002 on mnist_cnn.py and torch_train.py: their CNNs are
	// narrow, where per-step .item() costs nothing measurable
	// (corpus/gpu/sync002_narrow.py).
	"mnist_cnn.py": {"MEM003", "MEM004", "MEM005", "OPT001", "OPT003", "OPT004", "SYNC003"},
	// Its MLP trains at batch 4096: at 256 and 512 such MLPs gained
	// nothing from autocast or TF32 (corpus/gpu/amp004_narrow.py wide),
	// and AMP004/AMP005 say nothing of an MLP at a batch below 2048.
	"notebook_pipeline.py": {"AMP004", "AMP005", "CUDF001", "CUDF002", "OPT001", "OPT004", "SYNC002",
		"XGB001", "XGB002", "XGB004"},
	"tabular_xgb.py": {"XGB001", "XGB002", "XGB003", "XGB004", "XGB006"},
	// No OPT004: its CNN (32 and 64 channels, a 4096x10 head) is narrow,
	// and compiled narrow networks ran 0.47-0.89x (corpus/gpu/narrow_gates.py).
	"torch_train.py": {"AMP001", "AMP002", "AMP003", "MEM005", "MEM006", "OPT001", "OPT003"},
	"xgb_train.py":   {"XGB001", "XGB002", "XGB003", "XGB004"},
}

// TestExamples runs check and `fix --unsafe-fixes` (every rule, an H100
// target) over each script of corpus/examples, the way a user would on a
// real project, and checks what must hold for any input: the expected
// rules fire, the fixed file compiles under CPython, a second fix changes
// nothing, comments survive, and line endings and indentation keep the
// original's style.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("examples", "*.py"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		name := filepath.Base(path)
		seen[name] = true
		t.Run(name, func(t *testing.T) { runExample(t, path, exampleCodes[name]) })
	}
	for name := range exampleCodes {
		if !seen[name] {
			t.Errorf("exampleCodes lists %s, which is not in corpus/examples", name)
		}
	}
}

func runExample(t *testing.T, path string, want []string) {
	if want == nil {
		t.Fatalf("%s: add the codes it must report to exampleCodes", path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gpu, _ := TargetGPU("h100")
	env := &patterns.Env{Versions: patterns.DefaultVersions, GPU: gpu, CPUCount: 8}
	analyze := func(f *rewrite.File) []rewrite.Finding { return patterns.Run(f, everyRule(), env) }
	// The predicate of `gpuopt fix --unsafe-fixes` (cmd/gpuopt settings.wants).
	wants := func(fd rewrite.Finding) bool {
		return fd.Fix != nil && (fd.Fix.Applicability == rewrite.Safe || fd.Fix.Applicability == rewrite.Unsafe)
	}

	f := rewrite.Parse(path, src)
	if f.HasSyntaxErrors() {
		t.Fatalf("example does not parse: %s", f.SyntaxError())
	}
	codes := map[string]bool{}
	for _, fd := range analyze(f) {
		codes[fd.Code] = true
	}
	got := make([]string, 0, len(codes))
	for c := range codes {
		got = append(got, c)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(sorted(want), ",") {
		t.Errorf("rules fired %v, want %v", got, sorted(want))
	}

	res := rewrite.FixFile(f, analyze, wants)
	out := res.Output
	if string(out) == string(src) {
		t.Errorf("fix --unsafe-fixes changed nothing")
	}
	if res.Dropped > 0 {
		t.Errorf("%d fixes were dropped because they broke the file", res.Dropped)
	}
	pyCompile(t, filepath.Base(path), out)
	again := rewrite.FixFile(rewrite.Parse(path, out), analyze, wants)
	if string(again.Output) != string(out) {
		t.Errorf("a second fix changes the file:\n%s", rewrite.UnifiedDiff(path, out, again.Output))
	}
	for _, c := range commentLines(src) {
		if !strings.Contains(string(out), c) {
			t.Errorf("comment %q was lost", c)
		}
	}
	checkLineEndings(t, src, out)
	checkIndentation(t, path, src, out)
}

// everyRule selects every rule, the opt-in ones (Rule.OptIn) too.
func everyRule() patterns.Selection {
	sel := patterns.Selection{Select: []string{"ALL"}}
	for _, r := range patterns.All() {
		if r.OptIn {
			sel.Select = append(sel.Select, r.Code)
		}
	}
	return sel
}

// pyCompile writes src to a temporary file and runs `python3 -m py_compile`.
func pyCompile(t *testing.T, name string, src []byte) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to check that fixed files compile: %v", err)
	}
	tmp := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-m", "py_compile", tmp).CombinedOutput(); err != nil {
		t.Errorf("fixed %s does not compile: %v\n%s", name, err, out)
	}
}

// commentLines returns the lines of src that hold only a comment, trimmed.
func commentLines(src []byte) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// checkLineEndings: a CRLF file stays CRLF on every line, an LF file gains
// no carriage return.
func checkLineEndings(t *testing.T, src, out []byte) {
	crlf := strings.Contains(string(src), "\r\n")
	for i, line := range strings.SplitAfter(string(out), "\n") {
		if !strings.HasSuffix(line, "\n") {
			continue
		}
		if hasCR := strings.HasSuffix(line, "\r\n"); hasCR != crlf {
			t.Errorf("fixed line %d: %q does not keep the file's line ending (CRLF %v)", i+1, line, crlf)
		}
	}
}

// checkIndentation: every statement of the fixed file is indented with the
// original's unit (tabs, or a multiple of its smallest space indent).
func checkIndentation(t *testing.T, path string, src, out []byte) {
	orig := statementIndents(rewrite.Parse(path, src))
	unit := ""
	for _, ind := range orig {
		if ind != "" && (unit == "" || len(ind) < len(unit)) {
			unit = ind
		}
	}
	if unit == "" {
		return
	}
	for line, ind := range statementIndents(rewrite.Parse(path, out)) {
		if strings.Count(ind, unit[:1]) != len(ind) || len(ind)%len(unit) != 0 {
			t.Errorf("fixed line %d is indented %q, the file's unit is %q", line+1, ind, unit)
		}
	}
}

// statementIndents maps the line of every statement inside a block to the
// whitespace before it.
func statementIndents(f *rewrite.File) map[int]string {
	out := map[int]string{}
	for _, block := range f.OfType("block") {
		for _, st := range rewrite.Statements(block) {
			if st.Type == "comment" {
				continue
			}
			out[f.Src.LineOf(st.Start)] = f.Src.IndentOf(st.Start)
		}
	}
	return out
}

package patterns

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// FuzzCheckAndFix feeds arbitrary bytes through check and fix with every
// rule and unsafe fixes on: nothing may panic, and a file that parsed
// cleanly must still parse cleanly after fixing.
func FuzzCheckAndFix(f *testing.F) {
	seeds, _ := filepath.Glob("../corpus/*/*.py")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"\n"))
	f.Add([]byte("import torch\r\nfor x in loader:\r\n\tloss.backward()\r\n"))
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 8}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := rewrite.Parse("fuzz.py", src)
		for _, fd := range Run(file, Selection{}, env) {
			if fd.Code == InternalErrorCode {
				t.Fatal(fd.Message)
			}
		}
		res := rewrite.FixFile(file, func(ff *rewrite.File) []rewrite.Finding { return Run(ff, Selection{}, env) },
			func(fd rewrite.Finding) bool { return fd.Fix != nil && fd.Fix.Applicability != rewrite.Hint })
		if file.HasSyntaxErrors() {
			if string(res.Output) != string(src) {
				t.Fatalf("a file with syntax errors was rewritten")
			}
			return
		}
		if out := rewrite.Parse("fuzz.py", res.Output); out.HasSyntaxErrors() {
			t.Fatalf("fix added a %s:\n%s", out.SyntaxError(), res.Output)
		}
	})
}

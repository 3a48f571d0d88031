package patterns

import (
	"os"
	"path/filepath"
	"strings"
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
	// Issue 16's hostile inputs: what CPython rejects (and look-alikes it
	// accepts), a byte order mark, lone carriage returns, deep nesting.
	for _, name := range []string{"cpython_rejects.txt", "cpython_accepts.txt"} {
		if b, err := os.ReadFile("../rewrite/testdata/" + name); err == nil {
			for _, snippet := range strings.Split(string(b), "### ")[1:] {
				_, body, _ := strings.Cut(snippet, "\n")
				f.Add([]byte("import torch\n" + body + "x = torch.zeros(3).cuda()\n"))
			}
		}
	}
	f.Add([]byte("\ufeffimport torch; s = torch.cuda.amp.GradScaler()\n"))
	f.Add([]byte("import torch\rs = torch.cuda.amp.GradScaler()\r"))
	f.Add([]byte("import torch\ny = " + strings.Repeat("-", 12000) + "1\n"))
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, CPUCount: 8}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := rewrite.Parse("fuzz.py", src)
		for _, fd := range Run(file, Selection{}, env) {
			if fd.Code == InternalErrorCode {
				t.Fatal(fd.Message)
			}
			if fd.Fix != nil && file.Rejected() {
				t.Fatalf("a fix in a file CPython rejects (%s)", file.SyntaxError())
			}
			// Positions convert both ways (CLI columns, LSP UTF-16).
			file.Src.Position(fd.Start)
			if line, col := file.Src.UTF16Position(fd.Start); file.Src.OffsetFromUTF16(line, col) != fd.Start {
				t.Fatalf("offset %d -> %d:%d -> %d", fd.Start, line, col, file.Src.OffsetFromUTF16(line, col))
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

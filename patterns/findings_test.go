package patterns

import (
	"os"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// ruleFindings runs Run on src with only code selected and returns that
// rule's findings (env nil: Run's defaults).
func ruleFindings(src []byte, code string, env *Env) []rewrite.Finding {
	var out []rewrite.Finding
	for _, fd := range Run(rewrite.Parse("t.py", src), Selection{Select: []string{code}}, env) {
		if fd.Code == code {
			out = append(out, fd)
		}
	}
	return out
}

// corpusFile reads a corpus case (a path relative to corpus/).
func corpusFile(t *testing.T, path string) []byte {
	t.Helper()
	src, err := os.ReadFile("../corpus/" + path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

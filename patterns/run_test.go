package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// A rule that panics loses its own findings on that file and becomes one
// E998 finding; the rules before it keep theirs.
func TestRunIsolatesAPanickingRule(t *testing.T) {
	f := rewrite.Parse("t.py", []byte("import torch\nx = 1\n"))
	var out []rewrite.Finding
	run := func(r *Rule) {
		runIsolated(&Pass{Rule: r, File: f, Model: f.Model(), Env: &Env{}, out: &out, memo: map[string]any{}})
	}
	run(&Rule{Code: "TST001", Check: func(p *Pass) { p.Report(f.Root, "kept", nil) }})
	run(&Rule{Code: "TST002", Check: func(p *Pass) {
		p.Report(f.Root, "dropped", nil)
		var n *rewrite.Node
		_ = n.Type // nil dereference
	}})
	if len(out) != 2 || out[0].Message != "kept" || out[1].Code != InternalErrorCode ||
		!strings.Contains(out[1].Message, "internal error in rule TST002") {
		t.Fatalf("%+v", out)
	}
}

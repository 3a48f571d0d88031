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

// One fact reached twice (a pinned loader assigned twice) is one finding.
func TestRunReportsIdenticalFindingsOnce(t *testing.T) {
	src := `import torch
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
model = model.cuda()
for x, y in loader:
    x = x.cuda()
    out = model(x)
`
	f := rewrite.Parse("t.py", []byte(src))
	got := Run(f, Selection{Select: []string{"XFER002"}}, nil)
	if len(got) != 1 || got[0].Code != "XFER002" {
		t.Fatalf("want one XFER002, got %+v", got)
	}
	// Same place and code but another message stays: it says something else.
	in := []rewrite.Finding{
		{Code: "A1", Message: "m", Start: 3, End: 5},
		{Code: "A1", Message: "other", Start: 3, End: 5},
		{Code: "A1", Message: "m", Start: 3, End: 5},
		{Code: "A1", Message: "m", Start: 3, End: 6},
	}
	if out := dedupe(in); len(out) != 3 || out[1].Message != "other" || out[2].End != 6 {
		t.Errorf("dedupe: %+v", out)
	}
}

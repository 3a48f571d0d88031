package patterns

import (
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Env is what rules know of the user's world beyond the file: the GPU they
// target and the library versions they use.
type Env struct {
	GPU      GPU
	Versions Versions
	// CPUCount is the host's CPU count (DataLoader worker advice); 0 means
	// unknown.
	CPUCount int
	// Project resolves what a file imports from its own project (nil:
	// nothing is resolved): the CLI makes one per run, the language server
	// one per workspace (workspace.NewProject).
	Project rewrite.ProjectIndex
	// VersionsFor, when set, gives the versions pinned nearest to a file
	// (a requirements file of its own package or repository); false: none
	// there, Versions applies.
	VersionsFor func(path string) (Versions, bool)
	// TorchCeiling says Versions.Torch was read from the code as the
	// release before one it cannot run on (an API later releases removed,
	// an assert on the major version): a ceiling, with no floor. Advice
	// whose fix needs a floor (OPT002's set_to_none, from 1.7) waits for
	// a pin.
	TorchCeiling bool
	// TorchExplicit says the user set the torch version in the
	// configuration ([tool.gpuopt] target-versions): the code's signs of
	// an older release (pre-0.4 idioms, an API later releases removed, an
	// assert on the major version) do not lower it (blind sample S26B's
	// torch 0.3 GZSL code, silent under an explicit torch 2.5).
	TorchExplicit bool
}

// Pass carries one rule's run over one file.
type Pass struct {
	Rule  *Rule
	File  *rewrite.File
	Model *rewrite.Model
	Env   *Env
	// Facts says what the file's values are and where they live.
	Facts *Facts
	out   *[]rewrite.Finding
	memo  map[string]any
}

// Memo returns the value compute produces for key, computing it once per
// file: rules of one family share their analysis (XGBoost parameter
// groups, for instance) instead of walking the tree again.
func (p *Pass) Memo(key string, compute func() any) any {
	if v, ok := p.memo[key]; ok {
		return v
	}
	v := compute()
	if p.memo == nil {
		p.memo = map[string]any{}
	}
	p.memo[key] = v
	return v
}

// LineOf is n's 1-based line number, as messages quote it ("line 12").
func (p *Pass) LineOf(n *rewrite.Node) string {
	return strconv.Itoa(p.File.Src.LineOf(n.Start) + 1)
}

// Report records a finding over node n. fix may be nil.
func (p *Pass) Report(n *rewrite.Node, message string, fix *rewrite.Fix) {
	p.ReportRange(n.Start, n.End, message, fix)
}

// ReportRange records a finding over the byte range [start, end).
func (p *Pass) ReportRange(start, end int, message string, fix *rewrite.Fix) {
	if fix != nil && len(fix.Edits) == 0 {
		fix = nil
	}
	*p.out = append(*p.out, rewrite.Finding{
		Code: p.Rule.Code, Message: message, Start: start, End: end,
		Severity: p.Rule.Severity, Fix: fix,
	})
}

// Fix builds a fix with the given applicability from edits.
func Fix(a rewrite.Applicability, message string, edits ...rewrite.Edit) *rewrite.Fix {
	return &rewrite.Fix{Applicability: a, Message: message, Edits: edits}
}

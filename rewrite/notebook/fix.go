package notebook

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// lineRef is how rule messages name another line of the file.
var lineRef = regexp.MustCompile(`\bline (\d+)\b`)

// Findings makes each finding's fix one the notebook can apply (Admit),
// dropping the fixes it cannot, and rewrites the module lines messages
// name ("line 12") as cell positions ("cell 4, line 2").
func (m *Module) Findings(f *rewrite.File, fds []rewrite.Finding) []rewrite.Finding {
	for i := range fds {
		fds[i].Fix = m.Admit(f, fds[i].Fix)
		fds[i].Message = lineRef.ReplaceAllStringFunc(fds[i].Message, func(ref string) string {
			n, err := strconv.Atoi(lineRef.FindStringSubmatch(ref)[1])
			if err != nil || n < 1 || n > len(m.lineStarts) {
				return ref
			}
			cell, line, _ := m.Position(m.lineStarts[n-1])
			return fmt.Sprintf("cell %d, line %d", CellNumber(cell), line+1)
		})
	}
	return fds
}

// Parse parses the module as the engine's file, named path.
func (m *Module) Parse(path string) *rewrite.File { return rewrite.Parse(path, m.Src) }

// FixResult is the outcome of Fix.
type FixResult struct {
	rewrite.FixResult
	// Cells are the fixed cells; Module is their module and
	// FixResult.File its parse.
	Cells  []Cell
	Module *Module
}

// Fix applies the fixes want accepts to the cells, pass after pass, as
// rewrite.FixFileWith does for a file: each pass analyses the module of
// the current cells, admits the fixes a notebook can apply and applies
// their edits cell by cell. path names the module (rules read files
// relative to it).
func Fix(path string, cells []Cell, analyze rewrite.Analyzer, want func(rewrite.Finding) bool) FixResult {
	return fix(path, cells, analyze, want, false)
}

// FixInEditor is Fix for an editor, which cannot add cells: a fix that
// adds a cell writes its lines at the top of the first code cell instead
// (InlineNewCells).
func FixInEditor(path string, cells []Cell, analyze rewrite.Analyzer, want func(rewrite.Finding) bool) FixResult {
	return fix(path, cells, analyze, want, true)
}

func fix(path string, cells []Cell, analyze rewrite.Analyzer, want func(rewrite.Finding) bool, inline bool) FixResult {
	mods := map[*rewrite.File]*Module{}
	m := Build(cells)
	f := m.Parse(path)
	mods[f] = m
	admitted := func(f *rewrite.File) []rewrite.Finding {
		m := mods[f]
		fds := m.Findings(f, analyze(f))
		if inline {
			for i := range fds {
				fds[i].Fix = m.InlineNewCells(fds[i].Fix)
			}
		}
		return fds
	}
	apply := func(f *rewrite.File, edits []rewrite.Edit) (*rewrite.File, error) {
		cells, err := mods[f].Apply(edits)
		if err != nil {
			return nil, err
		}
		nm := Build(cells)
		nf := nm.Parse(path)
		mods[nf] = nm
		return nf, nil
	}
	res := rewrite.FixFileWith(f, admitted, want, apply)
	final := mods[res.File]
	return FixResult{FixResult: res, Cells: final.Cells, Module: final}
}

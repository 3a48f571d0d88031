package notebook

import (
	"errors"
	"sort"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Module is the Python module the engine analyses for a list of cells:
// the code cells in order, IPython lines masked, each cell ending with a
// line break.
type Module struct {
	Src   []byte
	Cells []Cell // every cell, as given (markdown and raw too)
	// Broken are the code cells that do not parse on their own. IPython
	// compiles each cell apart, so such a cell fails alone: it is left out
	// of the module, never rewritten, and the other cells are analysed.
	Broken []CellError

	spans []cellSpan // the analysed cells, in order
	// lines maps each module line to its cell line.
	lines []moduleLine
	// lineStarts are the module's line start offsets.
	lineStarts []int
	cellSrcs   map[int]*rewrite.Source // per cell (position in Cells), built on demand
}

// cellSpan is where an analysed cell lies in the module.
type cellSpan struct {
	cell       int // position in Module.Cells
	start, end int // module bytes
	firstLine  int // first module line
	// cellLineStarts are the cell's own line start offsets.
	cellLineStarts []int
	// dedent, for a cell IPython dedents (leadingIndent), holds per cell
	// line the bytes of indentation the module leaves out; such a cell is
	// analysed but never rewritten (its fixes would be indented for the
	// module, not the cell).
	dedent []int
}

type moduleLine struct {
	span   int // index in spans
	masked bool
}

// Build concatenates the code cells of cells into a module. Cells with a
// cell magic (%%), empty cells and cells with a syntax error (Broken)
// contribute nothing.
func Build(cells []Cell) *Module {
	m := &Module{Cells: cells, cellSrcs: map[int]*rewrite.Source{}}
	var sb strings.Builder
	for i, c := range cells {
		if c.Kind != "code" || c.Source == "" || isCellMagic(c.Source) {
			continue
		}
		masked := maskCell(c.Source)
		var dedent []int
		err, ok := cellSyntaxError(i, masked)
		if !ok {
			// A cell whose first line is indented runs in IPython, which
			// removes that indentation from every line first.
			if src, cut, yes := leadingIndent(c.Source); yes {
				if d := maskCell(src); func() bool { _, ok := cellSyntaxError(i, d); return ok }() {
					masked, dedent, ok = d, cut, true
				}
			}
		}
		if !ok {
			m.Broken = append(m.Broken, err)
			continue
		}
		sp := cellSpan{cell: i, start: sb.Len(), firstLine: len(m.lines), dedent: dedent}
		for _, ml := range masked {
			m.lines = append(m.lines, moduleLine{span: len(m.spans), masked: ml.masked})
			m.lineStarts = append(m.lineStarts, sb.Len())
			sb.WriteString(ml.text)
		}
		// The cell's own line starts: masked lines differ in length.
		sp.cellLineStarts = lineStarts(c.Source)
		if !strings.HasSuffix(c.Source, "\n") {
			sb.WriteByte('\n')
		}
		sp.end = sb.Len()
		m.spans = append(m.spans, sp)
	}
	m.Src = []byte(sb.String())
	return m
}

// CellError is a code cell's first syntax error.
type CellError struct {
	Cell      int // position in Cells
	Line, Col int // 0-based, in the cell (the column in characters)
	What      string
}

// cellSyntaxError parses a cell's analysed lines on their own.
func cellSyntaxError(cell int, lines []maskedLine) (CellError, bool) {
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l.text)
	}
	f := rewrite.Parse("", []byte(sb.String()))
	defer f.Release()
	if !f.HasSyntaxErrors() {
		return CellError{}, true
	}
	e := f.Errors[0]
	line, col := f.Src.Position(e.Start)
	what := "invalid syntax"
	if e.Missing {
		what = "missing " + strings.TrimSpace(e.Type)
	}
	return CellError{Cell: cell, Line: line, Col: col, What: what}, false
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the module line containing off.
func (m *Module) lineOf(off int) int {
	return max(sort.Search(len(m.lineStarts), func(i int) bool { return m.lineStarts[i] > off })-1, 0)
}

// lineEnd returns the end of the module line's content (before its
// terminator) and the start of the next line.
func (m *Module) lineEnd(line int) (content, next int) {
	next = len(m.Src)
	if line+1 < len(m.lineStarts) {
		next = m.lineStarts[line+1]
	}
	content = next
	if content > m.lineStarts[line] && m.Src[content-1] == '\n' {
		content--
		if content > m.lineStarts[line] && m.Src[content-1] == '\r' {
			content--
		}
	}
	return content, next
}

// Locate maps a module offset to its cell (position in Cells) and the byte
// offset in that cell's source. An offset on a boundary belongs to the
// cell that starts there; the module's end to the last cell. ok is false
// for a module with no code.
func (m *Module) Locate(off int) (cell, cellOff int, ok bool) {
	si := m.spanAt(off)
	if si < 0 {
		return 0, 0, false
	}
	return m.spans[si].cell, m.locateIn(si, off), true
}

// spanAt returns the index of the span holding off (-1 for no code).
func (m *Module) spanAt(off int) int {
	if len(m.lines) == 0 {
		return -1
	}
	if off >= len(m.Src) {
		return len(m.spans) - 1
	}
	return m.lines[m.lineOf(max(off, 0))].span
}

// locateIn maps a module offset to an offset in span si's cell, clamping
// offsets outside the span to the cell's start or end.
func (m *Module) locateIn(si, off int) int {
	sp := m.spans[si]
	src := m.Cells[sp.cell].Source
	if off <= sp.start {
		return 0
	}
	if off >= sp.end {
		return len(src)
	}
	line := m.lineOf(off)
	col := off - m.lineStarts[line]
	if m.lines[line].masked {
		col = 0
	}
	cellLine := line - sp.firstLine
	if sp.dedent != nil && !m.lines[line].masked {
		col += sp.dedent[cellLine]
	}
	start := sp.cellLineStarts[cellLine]
	end := len(src)
	if cellLine+1 < len(sp.cellLineStarts) {
		end = sp.cellLineStarts[cellLine+1]
	}
	return min(start+col, end)
}

// CellSource returns cell's source as a rewrite.Source, for positions.
func (m *Module) CellSource(cell int) *rewrite.Source {
	if s, ok := m.cellSrcs[cell]; ok {
		return s
	}
	s := rewrite.NewSource("", []byte(m.Cells[cell].Source))
	m.cellSrcs[cell] = s
	return s
}

// Position maps a module offset to its cell (position in Cells), the
// 0-based line in the cell and the 0-based column in characters.
func (m *Module) Position(off int) (cell, line, col int) {
	cell, cellOff, ok := m.Locate(off)
	if !ok {
		return 0, 0, 0
	}
	line, col = m.CellSource(cell).Position(cellOff)
	return cell, line, col
}

// protected reports whether an edit of [start, end) touches a masked
// (IPython) line: its text, its line break, or the line break before it.
func (m *Module) protected(start, end int) bool {
	first, last := m.lineOf(max(start-1, 0)), m.lineOf(end)
	for l := first; l <= last && l < len(m.lines); l++ {
		if !m.lines[l].masked {
			continue
		}
		ls := m.lineStarts[l]
		_, next := m.lineEnd(l)
		if start == end {
			if ls < start && start < next {
				return true
			}
			continue
		}
		if start < next && max(ls-1, 0) < end {
			return true
		}
	}
	return false
}

// cellOfEdit returns the span an edit lies in, or -1 when it crosses a
// cell boundary: an insertion on a boundary belongs to the cell that
// starts there, a replaced range to the cell of its first and last byte.
func (m *Module) cellOfEdit(e rewrite.Edit) int {
	s := m.spanAt(e.Start)
	if s >= 0 && e.End > e.Start && m.spanAt(e.End-1) != s {
		return -1
	}
	return s
}

// Admit returns the fix as a notebook can apply it: every edit inside one
// cell and off IPython lines, "top of the module" insertions moved into
// the first code cell after its imports (where the names they use are
// imported by then). It returns nil for a fix it cannot apply.
func (m *Module) Admit(f *rewrite.File, fx *rewrite.Fix) *rewrite.Fix {
	if fx == nil {
		return nil
	}
	var edits []rewrite.Edit
	for _, e := range fx.Edits {
		if e.NewCell {
			if e.Start != 0 || e.End != 0 {
				return nil
			}
			edits = append(edits, e)
			continue
		}
		if e.Top {
			e = m.moveTop(f, e)
		}
		if e.Start < 0 || e.End > len(m.Src) || e.End < e.Start || m.cellOfEdit(e) < 0 || m.protected(e.Start, e.End) || m.spans[m.cellOfEdit(e)].dedent != nil {
			return nil
		}
		edits = append(edits, e)
	}
	out := *fx
	out.Edits = edits
	return &out
}

// moveTop places a top-of-module insertion after the imports that open the
// module (the first code cell's, in a notebook laid out as usual) rather
// than after the module's last import, which may sit in a late cell, run
// after the code that needs the insertion. It stays where the engine put
// it when that is earlier, or when a name it uses is imported only later.
func (m *Module) moveTop(f *rewrite.File, e rewrite.Edit) rewrite.Edit {
	var lastImport, first *rewrite.Node
	for i, c := range f.Root.NamedChildren() {
		if m.lines[m.lineOf(c.Start)].masked {
			continue // a placeholder of an IPython line
		}
		if c.Is("import_statement", "import_from_statement", "future_import_statement") {
			lastImport = c
			continue
		}
		if i == 0 && c.Type == "expression_statement" && len(c.NamedChildren()) == 1 && c.NamedChildren()[0].Type == "string" {
			continue // a docstring
		}
		first = c
		break
	}
	stmt := strings.Trim(e.New, "\r\n")
	nl := f.Src.LineEnding
	var moved rewrite.Edit
	switch {
	case lastImport != nil:
		at, _ := m.lineEnd(m.lineOf(lastImport.End))
		moved = rewrite.Edit{Start: at, End: at, New: nl + stmt}
	case first != nil:
		at := m.lineStarts[m.lineOf(first.Start)]
		moved = rewrite.Edit{Start: at, End: at, New: stmt + nl}
	default:
		return e
	}
	// The engine's place wins when it is earlier, unless it is an IPython
	// line's (the top of a first cell of magics only, which would gain
	// Python it does not otherwise hold).
	onMagic := e.Start < len(m.Src) && m.lines[m.lineOf(e.Start)].masked
	if moved.Start >= e.Start && !onMagic || !importedBy(f, stmt, moved.Start) {
		return e
	}
	return moved
}

// importedBy reports whether every module-level import the statement
// reads is bound before offset at.
func importedBy(f *rewrite.File, stmt string, at int) bool {
	sf := rewrite.Parse("", []byte(stmt))
	defer sf.Release()
	if sf.HasSyntaxErrors() {
		return false
	}
	bindings := f.Model().Module.Bindings
	for _, id := range sf.OfType("identifier") {
		p := id.Parent
		if p.Type == "attribute" && p.ChildByField("attribute") == id ||
			p.Type == "keyword_argument" && p.ChildByField("name") == id ||
			p.Is("dotted_name", "aliased_import", "import_statement", "import_from_statement") {
			continue
		}
		bs := bindings[id.Text()]
		imported, before := false, false
		for _, b := range bs {
			if b.Kind != rewrite.ImportBinding {
				continue
			}
			imported = true
			if b.Stmt != nil && b.Stmt.End <= at {
				before = true
			}
		}
		if imported && !before {
			return false
		}
	}
	return true
}

// ErrCrossesCells refuses an edit that spans two cells or touches an
// IPython line; Admit keeps such fixes away from Apply.
var ErrCrossesCells = errors.New("notebook: an edit crosses a cell boundary or touches an IPython line")

// Apply applies module edits cell by cell and returns the new cells: each
// edit's range mapped into its cell's source, and a NewCell edit's text
// made a code cell before the first code cell.
func (m *Module) Apply(edits []rewrite.Edit) ([]Cell, error) {
	perCell := map[int][]rewrite.Edit{}
	var added []Cell
	for _, e := range edits {
		if e.NewCell {
			added = append(added, Cell{Kind: "code", Source: e.New, Index: -1})
			continue
		}
		si := m.cellOfEdit(e)
		if si < 0 || m.protected(e.Start, e.End) || m.spans[si].dedent != nil {
			return nil, ErrCrossesCells
		}
		cell, s, end := m.spans[si].cell, m.locateIn(si, e.Start), m.locateIn(si, e.End)
		perCell[cell] = append(perCell[cell], rewrite.Edit{Start: s, End: end, New: e.New})
	}
	out := make([]Cell, 0, len(m.Cells)+len(added))
	for i, c := range m.Cells {
		if es := perCell[i]; len(es) > 0 {
			b, err := rewrite.ApplyEdits([]byte(c.Source), es)
			if err != nil {
				return nil, err
			}
			c.Source = string(b)
		}
		out = append(out, c)
	}
	if len(added) > 0 {
		at := len(out)
		for i, c := range out {
			if c.Kind == "code" {
				at = i
				break
			}
		}
		out = append(out[:at], append(added, out[at:]...)...)
	}
	return out, nil
}

// InlineNewCells returns fx with each NewCell edit turned into lines
// inserted at the top of the first code cell, for editors: LSP 3.17's
// workspace edits can change cells' text but cannot add a cell. A line
// magic there runs before the rest of the cell, as a cell of its own
// would. fx itself is returned when it adds no cell.
func (m *Module) InlineNewCells(fx *rewrite.Fix) *rewrite.Fix {
	if fx == nil || len(m.spans) == 0 {
		return fx
	}
	var out *rewrite.Fix
	for i, e := range fx.Edits {
		if !e.NewCell {
			continue
		}
		if out == nil {
			c := *fx
			c.Edits = append([]rewrite.Edit(nil), fx.Edits...)
			out = &c
		}
		at := m.spans[0].start
		out.Edits[i] = rewrite.Edit{Start: at, End: at, New: strings.TrimRight(e.New, "\n") + "\n"}
	}
	if out == nil {
		return fx
	}
	return out
}

// CellRange maps the module range [start, end) to its cell (position in
// Cells) and the range in that cell's source. A range that runs into a
// later cell ends at the end of its first cell; ok is false for a module
// with no code.
func (m *Module) CellRange(start, end int) (cell, s, e int, ok bool) {
	si := m.spanAt(start)
	if si < 0 {
		return 0, 0, 0, false
	}
	if end > start && m.spanAt(end-1) != si {
		end = m.spans[si].end
	}
	s = m.locateIn(si, start)
	return m.spans[si].cell, s, max(m.locateIn(si, max(end, start)), s), true
}

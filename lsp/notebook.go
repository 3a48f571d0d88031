package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// Notebook documents (LSP 3.17 notebook sync). The client opens a
// notebook with all its cells' text; the server analyses the code cells
// as one module (rewrite/notebook), publishes diagnostics on each cell's
// own URI (vscode-notebook-cell:...), and answers code actions and hovers
// asked on a cell URI in that cell's coordinates. go.lsp.dev/protocol
// v0.12.0 predates 3.17: the few types needed are defined here.

// notebookSelector is what the server syncs: Jupyter notebooks' Python
// cells.
var notebookSelector = map[string]any{
	"notebookSelector": []any{map[string]any{
		"notebook": "jupyter-notebook",
		"cells":    []any{map[string]any{"language": "python"}},
	}},
	"save": true,
}

// notebookCell is NotebookCell: its kind (1 markup, 2 code) and the URI
// of its text document.
type notebookCell struct {
	Kind     int                  `json:"kind"`
	Document protocol.DocumentURI `json:"document"`
}

// cellItem is a cell's text document (TextDocumentItem).
type cellItem struct {
	URI        protocol.DocumentURI `json:"uri"`
	LanguageID string               `json:"languageId"`
	Version    int32                `json:"version"`
	Text       string               `json:"text"`
}

type didOpenNotebookParams struct {
	NotebookDocument struct {
		URI          protocol.DocumentURI `json:"uri"`
		NotebookType string               `json:"notebookType"`
		Version      int32                `json:"version"`
		Cells        []notebookCell       `json:"cells"`
	} `json:"notebookDocument"`
	CellTextDocuments []cellItem `json:"cellTextDocuments"`
}

type didChangeNotebookParams struct {
	NotebookDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version int32                `json:"version"`
	} `json:"notebookDocument"`
	Change struct {
		Cells *struct {
			Structure *struct {
				Array struct {
					Start       int            `json:"start"`
					DeleteCount int            `json:"deleteCount"`
					Cells       []notebookCell `json:"cells"`
				} `json:"array"`
				DidOpen  []cellItem `json:"didOpen"`
				DidClose []struct {
					URI protocol.DocumentURI `json:"uri"`
				} `json:"didClose"`
			} `json:"structure"`
			Data        []notebookCell `json:"data"`
			TextContent []struct {
				Document struct {
					URI     protocol.DocumentURI `json:"uri"`
					Version int32                `json:"version"`
				} `json:"document"`
				Changes []contentChange `json:"changes"`
			} `json:"textContent"`
		} `json:"cells"`
	} `json:"change"`
}

type notebookIdentifier struct {
	NotebookDocument struct {
		URI protocol.DocumentURI `json:"uri"`
	} `json:"notebookDocument"`
}

// nbCell is one cell as the server holds it.
type nbCell struct {
	uri      protocol.DocumentURI
	kind     int
	language string
	text     string
}

// nbDoc is one open notebook.
type nbDoc struct {
	uri  protocol.DocumentURI
	path string

	mu        sync.Mutex
	version   int32
	cells     []nbCell
	state     *nbState // the analysis of the current version, made on demand
	eng       *engine
	timer     *time.Timer
	closed    bool
	published map[protocol.DocumentURI]bool // cells diagnostics were published for
	pubMu     sync.Mutex
}

// nbState is one version of a notebook under one configuration, analysed
// at most once.
type nbState struct {
	version int32
	cells   []nbCell
	eng     *engine
	path    string

	once     sync.Once
	mod      *notebook.Module
	file     *rewrite.File
	findings []rewrite.Finding // module offsets; fixes admitted, new cells inlined
	cellOf   []int             // each finding's cell (position in cells)
}

// engineCells turns the editor's cells into the notebook package's: code
// cells in Python are code, everything else is left out of the module.
func engineCells(cells []nbCell) []notebook.Cell {
	out := make([]notebook.Cell, len(cells))
	for i, c := range cells {
		kind := "markdown"
		if c.kind == 2 && (c.language == "" || c.language == "python") {
			kind = "code"
		}
		out[i] = notebook.Cell{Kind: kind, Source: c.text, Index: i}
	}
	return out
}

func (st *nbState) analyze() {
	st.once.Do(func() {
		st.mod = notebook.Build(engineCells(st.cells))
		if st.eng == nil || !patterns.Relevant(st.mod.Src) {
			return
		}
		st.file = st.mod.Parse(st.path)
		for _, fd := range st.mod.Findings(st.file, st.eng.analyze(st.file)) {
			fd.Fix = st.mod.InlineNewCells(fd.Fix)
			cell, _, _, ok := st.mod.CellRange(fd.Start, fd.End)
			if !ok {
				continue
			}
			st.findings = append(st.findings, fd)
			st.cellOf = append(st.cellOf, cell)
		}
	})
}

// current returns the analysis state of the notebook's current version.
func (nb *nbDoc) current() *nbState {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	if nb.closed {
		return nil
	}
	if nb.state == nil {
		nb.state = &nbState{version: nb.version, cells: append([]nbCell(nil), nb.cells...), eng: nb.eng, path: nb.path}
	}
	return nb.state
}

// cellIndex returns the position of the cell with the given URI, or -1.
func (st *nbState) cellIndex(uri protocol.DocumentURI) int {
	for i, c := range st.cells {
		if c.uri == uri {
			return i
		}
	}
	return -1
}

// cellEdits maps module edits to text edits of the cells they fall in.
func (st *nbState) cellEdits(edits []rewrite.Edit) map[protocol.DocumentURI][]protocol.TextEdit {
	out := map[protocol.DocumentURI][]protocol.TextEdit{}
	for _, e := range edits {
		cell, start, end, ok := st.mod.CellRange(e.Start, e.End)
		if !ok {
			continue
		}
		uri := st.cells[cell].uri
		out[uri] = append(out[uri], protocol.TextEdit{Range: toRange(st.mod.CellSource(cell), start, end), NewText: e.New})
	}
	return out
}

// cellFinding returns finding i with its range in its cell's coordinates.
func (st *nbState) cellFinding(i int) (rewrite.Finding, *rewrite.Source) {
	fd := st.findings[i]
	cell, s, e, _ := st.mod.CellRange(fd.Start, fd.End)
	fd.Start, fd.End = s, e
	return fd, st.mod.CellSource(cell)
}

// diagnostics returns each code cell's diagnostics.
func (st *nbState) diagnostics() map[protocol.DocumentURI][]protocol.Diagnostic {
	st.analyze()
	out := map[protocol.DocumentURI][]protocol.Diagnostic{}
	for i, c := range st.cells {
		if c.kind == 2 {
			out[st.cells[i].uri] = []protocol.Diagnostic{}
		}
	}
	for i := range st.findings {
		fd, src := st.cellFinding(i)
		uri := st.cells[st.cellOf[i]].uri
		out[uri] = append(out[uri], toDiagnostic(src, st.version, i, fd))
	}
	return out
}

func (s *Server) notebookOf(cell protocol.DocumentURI) *nbDoc {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cellOwner[cell]
}

// indexCells records which notebook each cell belongs to. Call with s.mu
// held.
func (s *Server) indexCells(nb *nbDoc, cells []nbCell) {
	for uri, owner := range s.cellOwner {
		if owner == nb {
			delete(s.cellOwner, uri)
		}
	}
	for _, c := range cells {
		s.cellOwner[c.uri] = nb
	}
}

func (s *Server) didOpenNotebook(raw json.RawMessage) error {
	var p didOpenNotebookParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	texts := map[protocol.DocumentURI]cellItem{}
	for _, c := range p.CellTextDocuments {
		texts[c.URI] = c
	}
	uri := p.NotebookDocument.URI
	path := uriPath(uri)
	if path == "" {
		path = string(uri)
	}
	nb := &nbDoc{uri: uri, path: path, version: p.NotebookDocument.Version, eng: s.engineNow(), published: map[protocol.DocumentURI]bool{}}
	for _, c := range p.NotebookDocument.Cells {
		item := texts[c.Document]
		nb.cells = append(nb.cells, nbCell{uri: c.Document, kind: c.Kind, language: item.LanguageID, text: item.Text})
	}
	s.mu.Lock()
	if old := s.notebooks[uri]; old != nil {
		old.stop(true)
	}
	s.notebooks[uri] = nb
	s.indexCells(nb, nb.cells)
	s.mu.Unlock()
	s.scheduleNotebook(nb)
	return nil
}

func (s *Server) didChangeNotebook(raw json.RawMessage) error {
	var p didChangeNotebookParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	nb := s.notebooks[p.NotebookDocument.URI]
	s.mu.Unlock()
	if nb == nil {
		return fmt.Errorf("change to notebook %s, which is not open", p.NotebookDocument.URI)
	}
	nb.mu.Lock()
	nb.version = p.NotebookDocument.Version
	nb.state = nil
	if ch := p.Change.Cells; ch != nil {
		if st := ch.Structure; st != nil {
			opened := map[protocol.DocumentURI]cellItem{}
			for _, c := range st.DidOpen {
				opened[c.URI] = c
			}
			start := min(max(st.Array.Start, 0), len(nb.cells))
			end := min(start+max(st.Array.DeleteCount, 0), len(nb.cells))
			var added []nbCell
			for _, c := range st.Array.Cells {
				item := opened[c.Document]
				added = append(added, nbCell{uri: c.Document, kind: c.Kind, language: item.LanguageID, text: item.Text})
			}
			nb.cells = append(nb.cells[:start:start], append(added, nb.cells[end:]...)...)
		}
		for _, d := range ch.Data {
			for i := range nb.cells {
				if nb.cells[i].uri == d.Document {
					nb.cells[i].kind = d.Kind
				}
			}
		}
		for _, tc := range ch.TextContent {
			for i := range nb.cells {
				if nb.cells[i].uri == tc.Document.URI {
					nb.cells[i].text = applyTextChanges(nb.cells[i].text, tc.Changes)
				}
			}
		}
	}
	cells := append([]nbCell(nil), nb.cells...)
	nb.mu.Unlock()
	s.mu.Lock()
	s.indexCells(nb, cells)
	s.mu.Unlock()
	s.scheduleNotebook(nb)
	return nil
}

// applyTextChanges applies content changes to a cell's text.
func applyTextChanges(text string, changes []contentChange) string {
	for _, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		src := rewrite.NewSource("", []byte(text))
		start := src.OffsetFromUTF16(int(c.Range.Start.Line), int(c.Range.Start.Character))
		end := src.OffsetFromUTF16(int(c.Range.End.Line), int(c.Range.End.Character))
		if end < start {
			start, end = end, start
		}
		text = text[:start] + c.Text + text[end:]
	}
	return text
}

func (s *Server) didCloseNotebook(ctx context.Context, raw json.RawMessage) error {
	var p notebookIdentifier
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	nb := s.notebooks[p.NotebookDocument.URI]
	delete(s.notebooks, p.NotebookDocument.URI)
	if nb != nil {
		s.indexCells(nb, nil)
	}
	s.mu.Unlock()
	if nb == nil {
		return nil
	}
	nb.stop(true)
	nb.pubMu.Lock()
	defer nb.pubMu.Unlock()
	for uri := range nb.published {
		s.conn.Notify(ctx, "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

// stop cancels the pending analysis; closing also ends the notebook.
func (nb *nbDoc) stop(closing bool) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	if nb.timer != nil {
		nb.timer.Stop()
		nb.timer = nil
	}
	if closing {
		nb.closed = true
	}
}

// reconfigure re-targets the notebook at a new configuration.
func (nb *nbDoc) reconfigure(eng *engine) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	nb.eng, nb.state = eng, nil
}

func (s *Server) scheduleNotebook(nb *nbDoc) {
	if s.opts.Debounce <= 0 {
		go s.publishNotebook(nb)
		return
	}
	nb.mu.Lock()
	defer nb.mu.Unlock()
	if nb.closed {
		return
	}
	if nb.timer != nil {
		nb.timer.Stop()
	}
	nb.timer = time.AfterFunc(s.opts.Debounce, func() { s.publishNotebook(nb) })
}

// publishNotebook sends each code cell's diagnostics (empty ones for cells
// that had some and no longer exist or have none).
func (s *Server) publishNotebook(nb *nbDoc) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic publishing diagnostics for %s: %v", nb.uri, r)
		}
	}()
	st := nb.current()
	if st == nil {
		return
	}
	diags := st.diagnostics()
	nb.pubMu.Lock()
	defer nb.pubMu.Unlock()
	if nb.current() != st {
		return // a newer version publishes its own
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateInitialized {
		return
	}
	gone := map[protocol.DocumentURI]bool{}
	for uri := range nb.published {
		if _, ok := diags[uri]; !ok {
			diags[uri] = []protocol.Diagnostic{} // a removed cell: clear it once
			gone[uri] = true
		}
	}
	uris := make([]string, 0, len(diags))
	for uri := range diags {
		uris = append(uris, string(uri))
	}
	sort.Strings(uris)
	for _, u := range uris {
		uri := protocol.DocumentURI(u)
		if err := s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
			URI: uri, Version: uint32(max(st.version, 0)), Diagnostics: diags[uri],
		}); err != nil {
			s.logf("publishing diagnostics: %v", err)
		}
		if gone[uri] {
			delete(nb.published, uri)
		} else {
			nb.published[uri] = true
		}
	}
}

// notebookCodeAction answers textDocument/codeAction on a cell URI: the
// quick fixes and "disable" actions of the cell's findings under the range
// or named by the diagnostics, and fix-all for the whole notebook.
func (s *Server) notebookCodeAction(nb *nbDoc, p protocol.CodeActionParams, want func(protocol.CodeActionKind) bool) []protocol.CodeAction {
	st := nb.current()
	if st == nil {
		return []protocol.CodeAction{}
	}
	st.analyze()
	cell := st.cellIndex(p.TextDocument.URI)
	actions := []protocol.CodeAction{}
	if cell < 0 || st.file == nil {
		return actions
	}
	src := st.mod.CellSource(cell)
	start := src.OffsetFromUTF16(int(p.Range.Start.Line), int(p.Range.Start.Character))
	end := src.OffsetFromUTF16(int(p.Range.End.Line), int(p.Range.End.Character))
	picked := map[int]bool{}
	for _, cd := range p.Context.Diagnostics {
		if dd, ok := diagData(cd); ok && dd.Version == st.version && dd.Index >= 0 && dd.Index < len(st.findings) && st.cellOf[dd.Index] == cell {
			picked[dd.Index] = true
		}
	}
	for i := range st.findings {
		if st.cellOf[i] != cell {
			continue
		}
		fd, _ := st.cellFinding(i)
		if fd.Start <= end && start <= fd.End {
			picked[i] = true
		}
	}
	indexes := make([]int, 0, len(picked))
	for i := range picked {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	if want(protocol.QuickFix) {
		var disables []protocol.CodeAction
		for _, i := range indexes {
			fd := st.findings[i]
			cf, csrc := st.cellFinding(i)
			diag := toDiagnostic(csrc, st.version, i, cf)
			if fd.Fix != nil && len(fd.Fix.Edits) > 0 {
				actions = append(actions, protocol.CodeAction{
					Title: fixTitle(fd), Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{diag},
					IsPreferred: fd.Fix.Applicability == rewrite.Safe,
					Edit:        &protocol.WorkspaceEdit{Changes: st.cellEdits(fd.Fix.Edits)},
				})
			}
			if e, ok := disableEdit(st.file, fd); ok {
				disables = append(disables, protocol.CodeAction{
					Title: fmt.Sprintf("Disable %s for this line", fd.Code), Kind: protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diag},
					Edit:        &protocol.WorkspaceEdit{Changes: st.cellEdits([]rewrite.Edit{e})},
				})
			}
		}
		actions = append(actions, disables...)
	}
	if want(SourceFixAll) {
		if edit, _ := st.fixAll(); edit != nil {
			actions = append(actions, protocol.CodeAction{Title: fixAllTitle(st.eng), Kind: SourceFixAll, Edit: edit})
		}
	}
	return actions
}

// diagData reads the data the server put on one of its diagnostics.
func diagData(cd protocol.Diagnostic) (diagnosticData, bool) {
	var dd diagnosticData
	if cd.Source != "gpuopt" || cd.Data == nil {
		return dd, false
	}
	b, err := json.Marshal(cd.Data)
	return dd, err == nil && json.Unmarshal(b, &dd) == nil
}

// fixAll applies the wanted fixes to the notebook's cells to a fixed point
// and returns the change as edits of the cells that changed (nil when
// nothing applies) and the number of fixes.
func (st *nbState) fixAll() (*protocol.WorkspaceEdit, int) {
	st.analyze()
	if st.file == nil {
		return nil, 0
	}
	any := false
	for _, fd := range st.findings {
		if st.eng.wants(fd) {
			any = true
			break
		}
	}
	if !any {
		return nil, 0
	}
	res := notebook.FixInEditor(st.path, engineCells(st.cells), st.eng.analyze, st.eng.wants)
	n := 0
	for _, k := range res.Applied {
		n += k
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	for i, c := range res.Cells {
		if c.Index < 0 || c.Index >= len(st.cells) || c.Source == st.cells[c.Index].text {
			continue
		}
		old := st.cells[c.Index]
		changes[old.uri] = lineEdits(rewrite.NewSource("", []byte(old.text)), []byte(res.Cells[i].Source))
	}
	if len(changes) == 0 {
		return nil, 0
	}
	return &protocol.WorkspaceEdit{Changes: changes}, n
}

// notebookHover answers textDocument/hover on a cell URI.
func (s *Server) notebookHover(nb *nbDoc, p protocol.HoverParams) *protocol.Hover {
	st := nb.current()
	if st == nil {
		return nil
	}
	st.analyze()
	cell := st.cellIndex(p.TextDocument.URI)
	if cell < 0 {
		return nil
	}
	src := st.mod.CellSource(cell)
	off := src.OffsetFromUTF16(int(p.Position.Line), int(p.Position.Character))
	var parts []string
	lo, hi := -1, -1
	for i := range st.findings {
		if st.cellOf[i] != cell {
			continue
		}
		fd, _ := st.cellFinding(i)
		if fd.Start <= off && off <= fd.End {
			parts = append(parts, findingMarkdown(st.findings[i]))
			if lo < 0 || fd.Start < lo {
				lo = fd.Start
			}
			hi = max(hi, fd.End)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	parts = append(parts, s.profileMarkdown(st.eng))
	r := toRange(src, lo, hi)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.Join(parts, "\n\n")}, Range: &r}
}

// notebookFixAllCommand runs gpuopt.fixAll for the notebook of a cell.
func (s *Server) notebookFixAllCommand(ctx context.Context, nb *nbDoc) (any, error) {
	st := nb.current()
	if st == nil {
		return map[string]any{"applied": false, "fixes": 0}, nil
	}
	edit, n := st.fixAll()
	if edit == nil {
		return map[string]any{"applied": false, "fixes": 0}, nil
	}
	var resp protocol.ApplyWorkspaceEditResponse
	if _, err := s.conn.Call(ctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{
		Label: fmt.Sprintf("gpuopt: fix all (%d fixes)", n), Edit: *edit,
	}, &resp); err != nil {
		return nil, err
	}
	return map[string]any{"applied": resp.Applied, "fixes": n}, nil
}

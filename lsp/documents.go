package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// document is one open text document.
type document struct {
	uri  protocol.DocumentURI
	path string

	mu        sync.Mutex
	snap      *snapshot
	timer     *time.Timer
	closed    bool
	published int32 // version of the last published diagnostics; -1 none
	pubMu     sync.Mutex
}

// fileHold counts who holds a parsed version of a document: the document
// whose current snapshot it is, and each request or analysis using it
// (document.acquire). When the count drops to zero no one can reach the
// version any more, and its memory serves the next edit's parse
// (rewrite.File.Release): a 5,000-line document's mirror is megabytes per
// keystroke otherwise.
type fileHold struct {
	file *rewrite.File
	refs atomic.Int32
	// use serialises the analyses of the snapshots that share the file (a
	// reconfigured document; a change that changed nothing): the file's
	// model and indexes are built on first use, without locks.
	use sync.Mutex
}

func newHold(f *rewrite.File) *fileHold {
	h := &fileHold{file: f}
	h.refs.Store(1)
	return h
}

func (h *fileHold) retain() { h.refs.Add(1) }

func (h *fileHold) release() {
	switch n := h.refs.Add(-1); {
	case n == 0:
		h.file.Release()
	case n < 0:
		panic("lsp: file released more often than held")
	}
}

// snapshot is one version of a document under one configuration; its
// analysis is computed at most once, by whoever needs it first. Its file
// may be used only while held: through document.acquire, or by the code
// that replaces the document's snapshot, under the document's lock.
type snapshot struct {
	version int32
	file    *rewrite.File
	hold    *fileHold // of file, shared by the snapshots of one version
	eng     *engine

	once     sync.Once
	findings []rewrite.Finding
	diags    []protocol.Diagnostic

	fixOnce  sync.Once
	fixEdits []protocol.TextEdit // nil: nothing to fix
	fixN     int
}

func (sn *snapshot) analyze() ([]rewrite.Finding, []protocol.Diagnostic) {
	sn.once.Do(func() {
		if sn.eng == nil {
			return
		}
		if !patterns.Relevant(sn.file.Src.Bytes) {
			sn.diags = []protocol.Diagnostic{}
			return
		}
		sn.hold.use.Lock()
		sn.findings = sn.eng.analyze(sn.file)
		if e999, ok := sn.file.FirstRejection(); ok {
			// What CPython rejects (Python 2, nesting too deep) is shown:
			// it is why the file gets no fixes. Appended, so that the
			// findings' indexes stay those of the analysis.
			sn.findings = append(sn.findings, e999)
		}
		sn.hold.use.Unlock()
		sn.diags = make([]protocol.Diagnostic, len(sn.findings))
		for i, fd := range sn.findings {
			sn.diags[i] = toDiagnostic(sn.file.Src, sn.version, i, fd)
		}
	})
	return sn.findings, sn.diags
}

// fixAll applies the wanted fixes to a fixed point and returns the change
// as edits of the changed lines, or nil when nothing applies.
func (sn *snapshot) fixAll() ([]protocol.TextEdit, int) {
	sn.fixOnce.Do(func() {
		findings, _ := sn.analyze()
		any := false
		for _, fd := range findings {
			if sn.eng.wants(fd) {
				any = true
				break
			}
		}
		if !any {
			return
		}
		analyzer := func(f *rewrite.File) []rewrite.Finding {
			if f == sn.file {
				return findings
			}
			return sn.eng.analyze(f)
		}
		sn.hold.use.Lock()
		res := rewrite.FixFile(sn.file, analyzer, sn.eng.wants)
		sn.hold.use.Unlock()
		for _, n := range res.Applied {
			sn.fixN += n
		}
		sn.fixEdits = lineEdits(sn.file.Src, res.Output)
	})
	return sn.fixEdits, sn.fixN
}

// acquire returns the current snapshot with its file held for the caller,
// who must call release when done with it; nil once the document closed.
func (d *document) acquire() *snapshot {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.snap != nil {
		d.snap.hold.retain()
	}
	return d.snap
}

// sharing returns a snapshot of sn's file (held once more) as version
// under eng.
func (sn *snapshot) sharing(version int32, eng *engine) *snapshot {
	sn.hold.retain()
	return &snapshot{version: version, file: sn.file, hold: sn.hold, eng: eng}
}

// release lets go of a snapshot from acquire.
func (sn *snapshot) release() { sn.hold.release() }

// replace makes snap the document's current snapshot (nil: none) and drops
// the document's hold on the previous one. The caller holds d.mu.
func (d *document) replace(snap *snapshot) {
	if old := d.snap; old != nil {
		defer old.hold.release()
	}
	d.snap = snap
}

// stop cancels the pending analysis.
func (d *document) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopLocked()
}

func (d *document) stopLocked() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

// close stops the pending analysis and lets go of the document's
// snapshot: requests still using it hold it until they finish.
func (d *document) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopLocked()
	d.closed = true
	d.replace(nil)
}

// reconfigure re-targets the document at a new configuration; the next
// analysis uses it.
func (d *document) reconfigure(eng *engine) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if old := d.snap; old != nil {
		d.replace(old.sharing(old.version, eng))
	}
}

func (s *Server) doc(uri protocol.DocumentURI) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

func (s *Server) engineNow() *engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng
}

func (s *Server) didOpen(raw json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	uri := p.TextDocument.URI
	path := uriPath(uri)
	if path == "" {
		path = string(uri)
	}
	d := &document{uri: uri, path: path, published: -1}
	f := rewrite.Parse(path, []byte(p.TextDocument.Text))
	d.snap = &snapshot{version: p.TextDocument.Version, file: f, hold: newHold(f), eng: s.engineNow()}
	s.mu.Lock()
	if old := s.docs[uri]; old != nil {
		old.close()
	}
	s.docs[uri] = d
	s.mu.Unlock()
	s.schedule(d)
	return nil
}

// contentChange is TextDocumentContentChangeEvent with an optional range:
// protocol v0.12.0's struct cannot tell a full-text change from one at 0:0.
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

func (s *Server) didChange(raw json.RawMessage) error {
	var p struct {
		TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		Changes      []contentChange                          `json:"contentChanges"`
	}
	if err := decode(raw, &p); err != nil {
		return err
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return fmt.Errorf("change to %s, which is not open", p.TextDocument.URI)
	}
	// Files importing this one see its definitions afresh.
	s.project.Forget(d.path)
	d.mu.Lock()
	old := d.snap
	if old == nil {
		d.mu.Unlock()
		return fmt.Errorf("change to %s, which is closed", p.TextDocument.URI)
	}
	if p.TextDocument.Version <= old.version {
		d.mu.Unlock()
		return fmt.Errorf("ignoring stale change to %s: version %d after %d", d.uri, p.TextDocument.Version, old.version)
	}
	var next *snapshot
	if f := applyChanges(old.file, p.Changes); f == old.file {
		next = old.sharing(p.TextDocument.Version, old.eng) // no change in the notification
	} else {
		next = &snapshot{version: p.TextDocument.Version, file: f, hold: newHold(f), eng: old.eng}
	}
	d.snap = next // the document's hold on old is dropped below, as replace does
	d.mu.Unlock()
	s.schedule(d)
	// Recycling the old version clears megabytes: with no debounce, the
	// new version's analysis has started meanwhile (on another core).
	old.hold.release()
	return nil
}

// applyChanges applies content changes in order, re-parsing incrementally
// after each ranged one (tree-sitter reuses the unchanged subtrees).
func applyChanges(f *rewrite.File, changes []contentChange) *rewrite.File {
	first := f
	for _, c := range changes {
		prev := f
		if prev != first {
			// An intermediate version between two changes of one
			// notification: no one else has seen it.
			defer prev.Release()
		}
		if c.Range == nil {
			f = rewrite.Parse(f.Src.Path, []byte(c.Text))
			continue
		}
		src := f.Src
		start := src.OffsetFromUTF16(int(c.Range.Start.Line), int(c.Range.Start.Character))
		end := src.OffsetFromUTF16(int(c.Range.End.Line), int(c.Range.End.Character))
		if end < start {
			start, end = end, start
		}
		b := make([]byte, 0, len(src.Bytes)-(end-start)+len(c.Text))
		b = append(b, src.Bytes[:start]...)
		b = append(b, c.Text...)
		b = append(b, src.Bytes[end:]...)
		f = rewrite.Reparse(f, b, rewrite.Edit{Start: start, End: end, New: c.Text})
	}
	return f
}

func (s *Server) didClose(ctx context.Context, raw json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	d.close()
	d.pubMu.Lock()
	defer d.pubMu.Unlock()
	return s.conn.Notify(ctx, "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: d.uri, Diagnostics: []protocol.Diagnostic{},
	})
}

// schedule publishes the document's diagnostics after the debounce delay
// (restarted by every change), or at once when there is none.
func (s *Server) schedule(d *document) {
	if s.opts.Debounce <= 0 {
		go s.publish(d)
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(s.opts.Debounce, func() { s.publish(d) })
}

// publish analyses the current snapshot and sends its diagnostics unless a
// newer version arrived meanwhile (its own publish follows).
func (s *Server) publish(d *document) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic publishing diagnostics for %s: %v", d.uri, r)
		}
	}()
	snap := d.acquire()
	if snap == nil {
		return
	}
	defer snap.release()
	_, diags := snap.analyze()
	d.pubMu.Lock()
	defer d.pubMu.Unlock()
	d.mu.Lock()
	stale := d.snap != snap || d.closed
	d.mu.Unlock()
	if stale {
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateInitialized {
		return
	}
	d.published = snap.version
	err := s.stream.notify(context.Background(), "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: d.uri, Version: uint32(max(snap.version, 0)), Diagnostics: diags,
	})
	if err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

// diagnosticData is what a diagnostic carries for its code action: the
// document version and the finding's index in that version's analysis
// (the fix itself stays on the server: it is looked up, not re-sent).
type diagnosticData struct {
	Version int32 `json:"version"`
	Index   int   `json:"index"`
	// Fix is the fix's applicability ("safe", "unsafe", "hint"), absent
	// when the finding has no fix.
	Fix string `json:"fix,omitempty"`
}

func toRange(src *rewrite.Source, start, end int) protocol.Range {
	sl, sc := src.UTF16Position(start)
	el, ec := src.UTF16Position(end)
	return protocol.Range{
		Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)},
		End:   protocol.Position{Line: uint32(el), Character: uint32(ec)},
	}
}

func toTextEdits(src *rewrite.Source, edits []rewrite.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: toRange(src, e.Start, e.End), NewText: e.New}
	}
	return out
}

// severity maps a finding to the editor's severity: errors stay errors,
// performance problems are warnings, and advice (hint-only rules, or a fix
// downgraded to a hint because no GPU is known) is information.
func severity(fd rewrite.Finding) protocol.DiagnosticSeverity {
	hintOnly := fd.Fix != nil && fd.Fix.Applicability == rewrite.Hint
	if r := patterns.Lookup(fd.Code); r != nil && r.Fix == rewrite.Hint {
		hintOnly = true
	}
	switch fd.Severity {
	case rewrite.Error:
		return protocol.DiagnosticSeverityError
	case rewrite.Information:
		if hintOnly {
			return protocol.DiagnosticSeverityHint
		}
		return protocol.DiagnosticSeverityInformation
	default:
		if hintOnly {
			return protocol.DiagnosticSeverityInformation
		}
		return protocol.DiagnosticSeverityWarning
	}
}

// codeDescription links a diagnostic to its rule's documentation (nil
// for codes that are not rules).
func codeDescription(code string) *protocol.CodeDescription {
	if d, ok := codeDescriptions.Load(code); ok {
		return d.(*protocol.CodeDescription)
	}
	var d *protocol.CodeDescription
	if u := patterns.DocURL(code); u != "" {
		d = &protocol.CodeDescription{Href: protocol.URI(u)}
	}
	codeDescriptions.Store(code, d)
	return d
}

// codeDescriptions caches codeDescription per code: a large file's every
// keystroke would otherwise build hundreds of equal links. The values are
// shared, never modified.
var codeDescriptions sync.Map

func toDiagnostic(src *rewrite.Source, version int32, index int, fd rewrite.Finding) protocol.Diagnostic {
	data := diagnosticData{Version: version, Index: index}
	if fd.Fix != nil {
		data.Fix = fd.Fix.Applicability.String()
	}
	return protocol.Diagnostic{
		Range:           toRange(src, fd.Start, fd.End),
		Severity:        severity(fd),
		Code:            fd.Code,
		CodeDescription: codeDescription(fd.Code),
		Source:          "gpuopt",
		Message:         fd.Message,
		Data:            data,
	}
}

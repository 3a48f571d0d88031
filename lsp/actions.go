package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// codeActionData marks a fix-all action whose edit codeAction/resolve
// computes.
type codeActionData struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version int32                `json:"version"`
	Kind    string               `json:"kind"`
}

func (s *Server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	want := func(kind protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
				return true
			}
		}
		return false
	}
	if nb := s.notebookOf(p.TextDocument.URI); nb != nil {
		return s.notebookCodeAction(nb, p, want), nil
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return []protocol.CodeAction{}, nil
	}
	snap := d.acquire()
	if snap == nil {
		return []protocol.CodeAction{}, nil
	}
	defer snap.release()
	findings, diags := snap.analyze()
	src := snap.file.Src

	// The findings asked for: those the client's diagnostics name (by the
	// data we gave them, for this version) and those under the range.
	picked := map[int]bool{}
	for _, cd := range p.Context.Diagnostics {
		if cd.Source != "gpuopt" || cd.Data == nil {
			continue
		}
		b, err := json.Marshal(cd.Data)
		if err != nil {
			continue
		}
		var dd diagnosticData
		if json.Unmarshal(b, &dd) == nil && dd.Version == snap.version && dd.Index >= 0 && dd.Index < len(findings) && fmt.Sprint(cd.Code) == findings[dd.Index].Code {
			picked[dd.Index] = true
		}
	}
	start := src.OffsetFromUTF16(int(p.Range.Start.Line), int(p.Range.Start.Character))
	end := src.OffsetFromUTF16(int(p.Range.End.Line), int(p.Range.End.Character))
	for i, fd := range findings {
		if fd.Start <= end && start <= fd.End {
			picked[i] = true
		}
	}

	actions := []protocol.CodeAction{}
	if want(protocol.QuickFix) {
		var disables []protocol.CodeAction
		for i, fd := range findings {
			if !picked[i] {
				continue
			}
			if fd.Fix != nil && len(fd.Fix.Edits) > 0 {
				actions = append(actions, protocol.CodeAction{
					Title:       fixTitle(fd),
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diags[i]},
					IsPreferred: fd.Fix.Applicability == rewrite.Safe,
					Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
						d.uri: toTextEdits(src, fd.Fix.Edits),
					}},
				})
			}
			if e, ok := disableEdit(snap.file, fd); ok {
				disables = append(disables, protocol.CodeAction{
					Title:       fmt.Sprintf("Disable %s for this line", fd.Code),
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diags[i]},
					Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
						d.uri: toTextEdits(src, []rewrite.Edit{e}),
					}},
				})
			}
		}
		actions = append(actions, disables...)
	}
	if want(SourceFixAll) && ctx.Err() == nil {
		n := 0
		for _, fd := range findings {
			if snap.eng.wants(fd) {
				n++
			}
		}
		if n > 0 {
			a := protocol.CodeAction{Title: fixAllTitle(snap.eng), Kind: SourceFixAll}
			s.mu.Lock()
			lazy := s.resolve
			s.mu.Unlock()
			switch {
			case lazy:
				// The edit comes with codeAction/resolve, when picked.
				a.Data = codeActionData{URI: d.uri, Version: snap.version, Kind: string(SourceFixAll)}
			case len(p.Context.Only) == 0:
				// A general request (the light bulb, a menu) from a client
				// that cannot resolve: running every fix to a fixed point
				// here would slow each request down, so the action runs
				// the gpuopt.fixAll command instead.
				a.Command = &protocol.Command{Title: a.Title, Command: CommandFixAll, Arguments: []any{string(d.uri)}}
			default:
				// Asked for by kind (fix on save): the edit itself.
				if edits, _ := snap.fixAll(); edits != nil {
					a.Edit = &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: edits}}
				} else {
					n = 0
				}
			}
			if n > 0 {
				actions = append(actions, a)
			}
		}
	}
	return actions, nil
}

func fixTitle(fd rewrite.Finding) string {
	msg := strings.TrimSuffix(fd.Fix.Message, ".")
	if msg == "" {
		msg = "apply the suggested rewrite"
	}
	return fmt.Sprintf("Fix %s: %s (%s)", fd.Code, msg, fd.Fix.Applicability)
}

func fixAllTitle(e *engine) string {
	if e.unsafe {
		return "gpuopt: fix all (safe and unsafe fixes)"
	}
	return "gpuopt: fix all safe fixes"
}

func (s *Server) resolveCodeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var a protocol.CodeAction
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	if a.Edit != nil || a.Data == nil {
		return a, nil
	}
	b, _ := json.Marshal(a.Data)
	var cd codeActionData
	if err := json.Unmarshal(b, &cd); err != nil || cd.Kind != string(SourceFixAll) {
		return a, nil
	}
	d := s.doc(cd.URI)
	if d == nil {
		return nil, errorf(jsonrpc2.InvalidParams, "%s is not open", cd.URI)
	}
	snap := d.acquire()
	if snap == nil {
		return nil, errorf(jsonrpc2.InvalidParams, "%s is not open", cd.URI)
	}
	defer snap.release()
	if snap.version != cd.Version {
		return nil, protocol.ErrContentModified
	}
	edits, _ := snap.fixAll()
	if edits == nil {
		edits = []protocol.TextEdit{}
	}
	a.Edit = &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: edits}}
	return a, nil
}

// lineEdits turns a rewrite of src into edits of the lines that differ (a
// line diff), so that fix-all on a large file sends what changed, not the
// file. nil when nothing changed.
func lineEdits(src *rewrite.Source, out []byte) []protocol.TextEdit {
	if bytes.Equal(src.Bytes, out) {
		return nil
	}
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToRunes(string(src.Bytes), string(out))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var edits []protocol.TextEdit
	off, start := 0, -1
	var repl strings.Builder
	flush := func() {
		if start >= 0 {
			edits = append(edits, protocol.TextEdit{Range: toRange(src, start, off), NewText: repl.String()})
			start = -1
			repl.Reset()
		}
	}
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			off += len(d.Text)
		case diffmatchpatch.DiffDelete:
			if start < 0 {
				start = off
			}
			off += len(d.Text)
		case diffmatchpatch.DiffInsert:
			if start < 0 {
				start = off
			}
			repl.WriteString(d.Text)
		}
	}
	flush()
	return edits
}

var ignoreList = regexp.MustCompile(`#\s*gpuopt:\s*ignore\[([^\]]*)\]`)

// disableEdit builds the edit that silences fd on its line: the code is
// added to an existing `# gpuopt: ignore[...]` comment there, or a new one
// is appended. The finding's first line is used unless it cannot carry a
// comment (it ends inside a string or with a backslash continuation).
func disableEdit(f *rewrite.File, fd rewrite.Finding) (rewrite.Edit, bool) {
	src := f.Src
	first, last := src.LineOf(fd.Start), src.LineOf(max(fd.Start, fd.End-1))
	for _, line := range []int{first, last} {
		start, end := src.LineStart(line), src.LineEnd(line)
		text := src.Text(start, end)
		for _, loc := range ignoreList.FindAllStringSubmatchIndex(text, -1) {
			if n := f.NodeAt(start+loc[0], start+loc[0]+1); n.Type != "comment" {
				continue
			}
			list := text[loc[2]:loc[3]]
			at := start + loc[3]
			if strings.TrimSpace(list) == "" {
				return rewrite.Edit{Start: start + loc[2], End: at, New: fd.Code}, true
			}
			return rewrite.Edit{Start: at, End: at, New: ", " + fd.Code}, true
		}
		trimmed := strings.TrimRight(text, " \t")
		if strings.HasSuffix(trimmed, "\\") {
			continue
		}
		if end > start && insideString(f, end) {
			continue
		}
		at := start + len(trimmed)
		sep := "  "
		if trimmed == "" {
			sep = ""
		}
		return rewrite.Edit{Start: at, End: end, New: sep + "# gpuopt: ignore[" + fd.Code + "]"}, true
	}
	return rewrite.Edit{}, false
}

// insideString reports whether the line break at off lies inside a string
// (a triple-quoted one spanning lines).
func insideString(f *rewrite.File, off int) bool {
	for n := f.NodeAt(off, off); n != nil; n = n.Parent {
		if n.Is("string", "string_content", "concatenated_string") && n.Start < off && off < n.End {
			return true
		}
	}
	return false
}

func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	if nb := s.notebookOf(p.TextDocument.URI); nb != nil {
		if h := s.notebookHover(nb, p); h != nil {
			return h, nil
		}
		return nil, nil
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	snap := d.acquire()
	if snap == nil {
		return nil, nil
	}
	defer snap.release()
	findings, _ := snap.analyze()
	src := snap.file.Src
	off := src.OffsetFromUTF16(int(p.Position.Line), int(p.Position.Character))
	var parts []string
	lo, hi := -1, -1
	for _, fd := range findings {
		if fd.Start <= off && off <= fd.End {
			parts = append(parts, findingMarkdown(fd))
			if lo < 0 || fd.Start < lo {
				lo = fd.Start
			}
			hi = max(hi, fd.End)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	parts = append(parts, s.profileMarkdown(snap.eng))
	r := toRange(src, lo, hi)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.Join(parts, "\n\n")},
		Range:    &r,
	}, nil
}

// profileMarkdown is the hover's last part: the hardware and library
// versions the findings assumed.
func (s *Server) profileMarkdown(eng *engine) string {
	env := eng.Env()
	_, hwText, _ := s.hardware(eng.explicit, eng.config)
	return "---\n\n**Hardware profile assumed:** " + describeGPU(env.GPU) + "\n\n" +
		fmt.Sprintf("**Library versions assumed:** torch %s, xgboost %s", env.Versions.Torch, env.Versions.XGBoost) +
		quoteBlock(hwText)
}

func findingMarkdown(fd rewrite.Finding) string {
	head := fmt.Sprintf("**%s** %s", fd.Code, fd.Message)
	if fd.Fix != nil {
		head += fmt.Sprintf("\n\nFix (%s): %s", fd.Fix.Applicability, fd.Fix.Message)
	}
	r := patterns.Lookup(fd.Code)
	if r == nil {
		return head
	}
	doc := patterns.RuleMarkdown(r)
	// Keep the rule's headings below the hover's own level.
	doc = strings.Replace(doc, "# ", "### ", 1)
	doc = strings.ReplaceAll(doc, "\n## ", "\n#### ")
	return head + "\n\n" + doc + fmt.Sprintf("\n[%s documentation](%s)", fd.Code, patterns.DocURL(fd.Code))
}

func describeGPU(g patterns.GPU) string {
	if !g.Known() {
		return "none: no GPU detected and no target configured (set `targetGpu` in the editor settings or `target-gpu` in [tool.gpuopt]); GPU-specific advice is shown as hints"
	}
	src := "read through NVML"
	if g.Source == "target" {
		src = "configured target"
	}
	return fmt.Sprintf("%s, %.0f GB, %s", g.Describe(), g.VRAMGB, src)
}

func quoteBlock(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	return "\n\n```text\n" + text + "\n```"
}

func (s *Server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	switch p.Command {
	case CommandShowHardware:
		eng := s.engineNow()
		gpu, text, _ := s.hardware(eng.explicit, eng.config)
		if strings.TrimSpace(text) == "" {
			text = describeGPU(gpu)
		}
		return text, nil
	case CommandFixAll:
		if len(p.Arguments) == 0 {
			return nil, errorf(jsonrpc2.InvalidParams, "%s needs the document URI", CommandFixAll)
		}
		var uri protocol.DocumentURI
		switch a := p.Arguments[0].(type) {
		case string:
			uri = protocol.DocumentURI(a)
		case map[string]any:
			if u, ok := a["uri"].(string); ok {
				uri = protocol.DocumentURI(u)
			} else if td, ok := a["textDocument"].(map[string]any); ok {
				u, _ := td["uri"].(string)
				uri = protocol.DocumentURI(u)
			}
		}
		if nb := s.notebookOf(uri); nb != nil {
			res, err := s.notebookFixAllCommand(ctx, nb)
			if err != nil {
				return nil, errorf(jsonrpc2.InternalError, "workspace/applyEdit: %v", err)
			}
			return res, nil
		}
		d := s.doc(uri)
		if d == nil {
			return nil, errorf(jsonrpc2.InvalidParams, "%s: %q is not an open document", CommandFixAll, uri)
		}
		snap := d.acquire()
		if snap == nil {
			return nil, errorf(jsonrpc2.InvalidParams, "%s: %q is not an open document", CommandFixAll, uri)
		}
		defer snap.release()
		edits, n := snap.fixAll()
		if edits == nil {
			return map[string]any{"applied": false, "fixes": 0}, nil
		}
		var resp protocol.ApplyWorkspaceEditResponse
		_, err := s.conn.Call(ctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{
			Label: fmt.Sprintf("gpuopt: fix all (%d fixes)", n),
			Edit: protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
				d.uri: edits,
			}},
		}, &resp)
		if err != nil {
			return nil, errorf(jsonrpc2.InternalError, "workspace/applyEdit: %v", err)
		}
		return map[string]any{"applied": resp.Applied, "fixes": n}, nil
	}
	return nil, errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
}

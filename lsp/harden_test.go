package lsp

// Regression tests for issue 16's hostile inputs to the server; the
// random message mixes are in adversarial_test.go.

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// startRaw serves one raw connection, initialized.
func startRaw(t *testing.T) (*rawConn, chan int) {
	t.Helper()
	a, b := net.Pipe()
	srv := NewServer(Options{})
	done := make(chan int, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	r := &rawConn{t: t, c: b, in: bufio.NewReader(b)}
	r.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	if m := r.next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	r.send(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
	return r, done
}

// reply returns the response to request id, skipping error replies to
// unreadable messages (id null) and replies to the request inside bad
// frames (id 0: a frame whose only fault is a length too long is read).
func (r *rawConn) reply(id float64) map[string]any {
	r.t.Helper()
	for {
		m := r.next()
		if m["id"] == nil || m["id"] == float64(0) {
			continue
		}
		if m["id"] != id {
			r.t.Fatalf("waiting for the reply to %v, got %v", id, m)
		}
		return m
	}
}

func hoverRequest(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nope.py"},"position":{"line":0,"character":0}}}`, id)
}

// Item 12: after any bad frame the next good one is read: the reader looks
// for the next Content-Length header anywhere, not only at a line start.
func TestResynchronisesAfterBadFrames(t *testing.T) {
	r, done := startRaw(t)
	good := hoverRequest(0)
	cases := map[string]func(id int) string{
		"negative length": func(id int) string { return "Content-Length: -5\r\n\r\n" + good + frame(hoverRequest(id)) },
		"length too long": func(id int) string {
			return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(good)+25, good) + frame(hoverRequest(id))
		},
		"length too short": func(id int) string {
			return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(good)-10, good) + frame(hoverRequest(id))
		},
		"missing header":           func(id int) string { return good + frame(hoverRequest(id)) },
		"garbage without newline":  func(id int) string { return "\x00garbage}{ garbage" + frame(hoverRequest(id)) },
		"invalid UTF-8 before it":  func(id int) string { return "\xff\xfe\xff garbage" + frame(hoverRequest(id)) },
		"header cut in the middle": func(id int) string { return "Content-Len" + frame(hoverRequest(id)) },
	}
	id := 100
	for name, bad := range cases {
		id++
		r.send(bad(id))
		done := make(chan map[string]any, 1)
		go func() { done <- r.reply(float64(id)) }()
		select {
		case m := <-done:
			if m["id"] != float64(id) {
				t.Errorf("%s: %v", name, m)
			}
		case <-time.After(6 * time.Second):
			t.Fatalf("%s: the next valid request got no answer", name)
		}
	}
	r.send(frame(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`))
	r.reply(9)
	r.send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit")
	}
}

// Item 1: a document nested far too deep neither kills the server nor
// goes unreported; the server goes on serving it and others. (200,000
// deep with the stack limited to 32 MB overflowed before the
// fix just as a million deep did, in a quarter of the time.)
func TestDeepDocumentIsReportedAndServerSurvives(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(32 << 20))
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	deep := "import torch\ny = " + strings.Repeat("-", 200_000) + "1\n"
	c.open(testURI, deep, 1)
	p := c.waitDiags(testURI, 1)
	if d := findDiag(p.Diagnostics, "E999"); d == nil || !strings.Contains(d.Message, "nesting too deep") || d.Range.Start.Line != 1 {
		t.Errorf("deep document: %+v", p.Diagnostics)
	}
	// An edit inside it: still reported.
	c.change(testURI, 2, rng(1, 4, 1, 5), "+")
	p = c.waitDiags(testURI, 2)
	if findDiag(p.Diagnostics, "E999") == nil {
		t.Errorf("after an edit: %+v", p.Diagnostics)
	}
	// Hover, code actions on it are answered.
	var hover any
	c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": testURI}, "position": map[string]any{"line": 1, "character": 500000}}, &hover)
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": testURI}, "range": rng(0, 0, 1, 9), "context": map[string]any{"diagnostics": []any{}}}, &actions)
	// Replaced by ordinary code: analysed as usual.
	c.changeFull(testURI, 3, "import torch\ns = torch.cuda.amp.GradScaler()\n")
	p = c.waitDiags(testURI, 3)
	if findDiag(p.Diagnostics, "AMP002") == nil || findDiag(p.Diagnostics, "E999") != nil {
		t.Errorf("after replacing it: %+v", p.Diagnostics)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// Items 6 and 7: Python 2 is reported, not analysed into fixes; a byte
// order mark hides nothing, and positions count it as the client's text
// does.
func TestPython2AndByteOrderMarkDocuments(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	c.open(testURI, "import torch\nprint 'x'\ns = torch.cuda.amp.GradScaler()\n", 1)
	p := c.waitDiags(testURI, 1)
	if d := findDiag(p.Diagnostics, "E999"); d == nil || d.Range.Start.Line != 1 || !strings.Contains(d.Message, "print statement") {
		t.Errorf("Python 2: %+v", p.Diagnostics)
	}
	if d := findDiag(p.Diagnostics, "AMP002"); d != nil && len(c.actionsFor(*d)) > 0 {
		for _, a := range c.actionsFor(*d) {
			if a.Kind == protocol.QuickFix && strings.HasPrefix(a.Title, "Fix AMP002") && a.Edit != nil {
				t.Errorf("a quick fix in a file CPython rejects: %+v", a)
			}
		}
	}
	c.changeFull(testURI, 2, "\ufeffimport torch; s = torch.cuda.amp.GradScaler()\n")
	p = c.waitDiags(testURI, 2)
	d := findDiag(p.Diagnostics, "AMP002")
	if d == nil || d.Range.Start.Line != 0 || d.Range.Start.Character != 19 {
		t.Errorf("BOM: %+v", p.Diagnostics)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

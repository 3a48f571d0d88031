package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	sjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// testClient is an in-process LSP client speaking real JSON-RPC to a
// Server over a pipe.
type testClient struct {
	t      testing.TB
	srv    *Server
	conn   jsonrpc2.Conn
	diags  chan protocol.PublishDiagnosticsParams
	done   chan int
	mu     sync.Mutex
	edits  []protocol.ApplyWorkspaceEditParams
	cancel context.CancelFunc
	// light: decode only the URI and version of published diagnostics
	// (benchmarks time the server, not the client's decoding).
	light bool
}

func newTestClient(t testing.TB, opts Options) *testClient {
	t.Helper()
	a, b := net.Pipe()
	return connectClient(t, NewServer(opts), a, b, false)
}

func connectClient(t testing.TB, srv *Server, serverSide, clientSide io.ReadWriteCloser, light bool) *testClient {
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{t: t, srv: srv, diags: make(chan protocol.PublishDiagnosticsParams, 1024), done: make(chan int, 1), cancel: cancel, light: light}
	if srv != nil {
		go func() { c.done <- srv.Serve(ctx, serverSide) }()
	}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
	})
	return c
}

func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p protocol.PublishDiagnosticsParams
		if c.light {
			var head struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version uint32               `json:"version"`
			}
			if err := sjson.Unmarshal(req.Params(), &head); err != nil {
				c.t.Errorf("publishDiagnostics: %v", err)
			}
			p.URI, p.Version = head.URI, head.Version
			p.Diagnostics = make([]protocol.Diagnostic, bytes.Count(req.Params(), []byte(`"source":"gpuopt"`)))
		} else if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
		}
		c.diags <- p
		return nil
	case "workspace/applyEdit":
		var p protocol.ApplyWorkspaceEditParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, err)
		}
		c.mu.Lock()
		c.edits = append(c.edits, p)
		c.mu.Unlock()
		return reply(ctx, protocol.ApplyWorkspaceEditResponse{Applied: true}, nil)
	}
	return reply(ctx, nil, nil)
}

func (c *testClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// actionsFor asks for the code actions of diagnostic d in testURI.
func (c *testClient) actionsFor(d protocol.Diagnostic) []protocol.CodeAction {
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
		Range:        d.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	}, &actions)
	return actions
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize runs the handshake; caps are the client's capabilities.
func (c *testClient) initialize(initOpts any, rootURI string, caps map[string]any) map[string]any {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	params := map[string]any{"processId": nil, "capabilities": caps, "initializationOptions": initOpts}
	if rootURI != "" {
		params["rootUri"] = rootURI
	}
	var res map[string]any
	c.mustCall("initialize", params, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *testClient) open(uri, text string, version int32) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "python", "version": version, "text": text,
	}})
}

// change sends one ranged change.
func (c *testClient) change(uri string, version int32, r protocol.Range, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": r, "text": text}},
	})
}

func (c *testClient) changeFull(uri string, version int32, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// waitDiags returns the first diagnostics published for uri at version or
// later.
func (c *testClient) waitDiags(uri string, version uint32) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if string(p.URI) == uri && p.Version >= version {
				return p
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

func (c *testClient) shutdownExit() int {
	c.t.Helper()
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case code := <-c.done:
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return -1
}

func rng(sl, sc, el, ec int) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)},
		End:   protocol.Position{Line: uint32(el), Character: uint32(ec)},
	}
}

// applyTextEdits applies LSP edits (UTF-16 positions) to text, the way an
// editor does.
func applyTextEdits(t testing.TB, text string, edits []protocol.TextEdit) string {
	t.Helper()
	src := rewrite.NewSource("", []byte(text))
	var re []rewrite.Edit
	for _, e := range edits {
		re = append(re, rewrite.Edit{
			Start: src.OffsetFromUTF16(int(e.Range.Start.Line), int(e.Range.Start.Character)),
			End:   src.OffsetFromUTF16(int(e.Range.End.Line), int(e.Range.End.Character)),
			New:   e.NewText,
		})
	}
	sort.Slice(re, func(i, j int) bool { return re[i].Start < re[j].Start })
	out, err := rewrite.ApplyEdits([]byte(text), re)
	if err != nil {
		t.Fatalf("applying %v: %v", edits, err)
	}
	return string(out)
}

func codeOf(d protocol.Diagnostic) string {
	s, _ := d.Code.(string)
	return s
}

func findDiag(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if codeOf(ds[i]) == code {
			return &ds[i]
		}
	}
	return nil
}

func findAction(as []protocol.CodeAction, pred func(protocol.CodeAction) bool) *protocol.CodeAction {
	for i := range as {
		if pred(as[i]) {
			return &as[i]
		}
	}
	return nil
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// h100 is a fixed hardware profile for tests.
func h100(calls *int, mu *sync.Mutex) func(string, string) (patterns.GPU, string, error) {
	return func(explicit, config string) (patterns.GPU, string, error) {
		if mu != nil {
			mu.Lock()
			*calls++
			mu.Unlock()
		}
		g := patterns.GPU{Name: "NVIDIA H100 80GB HBM3", ComputeMajor: 9, VRAMGB: 80, Source: "nvml"}
		return g, "Hardware profile: " + g.Describe() + "\nsource: nvml", nil
	}
}

func editsFor(a *protocol.CodeAction, uri string) []protocol.TextEdit {
	if a == nil || a.Edit == nil {
		return nil
	}
	return a.Edit.Changes[protocol.DocumentURI(uri)]
}

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

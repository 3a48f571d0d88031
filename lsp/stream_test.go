package lsp

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"io"
	"reflect"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

// TestNotificationFramingMatchesJsonrpc2 checks the notification writer
// against jsonrpc2's own encoding: both decode to the same message.
func TestNotificationFramingMatchesJsonrpc2(t *testing.T) {
	for _, params := range []any{
		map[string]any{"uri": "file:///a<b>&c.py", "diagnostics": []any{map[string]any{"message": "é \"quoted\" \\ \n"}}},
		nil,
	} {
		n, err := jsonrpc2.NewNotification("textDocument/publishDiagnostics", params)
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got := appendNotification(nil, n.Method(), n.Params())
		var a, b any
		if err := stdjson.Unmarshal(want, &a); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal(got, &b); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("framed %s, jsonrpc2 wrote %s", got, want)
		}
	}
}

// captureRWC records what a stream writes.
type captureRWC struct{ bytes.Buffer }

func (c *captureRWC) Read([]byte) (int, error) { return 0, io.EOF }
func (c *captureRWC) Close() error             { return nil }

// TestNotifyMatchesConn checks that stream.notify writes, byte for byte,
// what jsonrpc2.Conn.Notify writes through stream.Write: the diagnostics
// of the benchmark's 5,000-line file and messages with characters the
// encoder escapes.
func TestNotifyMatchesConn(t *testing.T) {
	src := trainingFile(5000)
	f := rewrite.Parse("/w/train.py", []byte(src))
	var diags []protocol.Diagnostic
	for i, fd := range patterns.Run(f, patterns.Selection{}, nil) {
		diags = append(diags, toDiagnostic(f.Src, 7, i, fd))
	}
	if len(diags) < 100 {
		t.Fatalf("only %d diagnostics", len(diags))
	}
	odd := protocol.Diagnostic{Message: "<b> & \"q\" \\ \u2028 é \x01 \t", Code: "X<1>", Source: "gpuopt", Data: diagnosticData{Version: -1, Fix: "safe"}}
	for _, params := range []*protocol.PublishDiagnosticsParams{
		{URI: "file:///w/train.py", Version: 7, Diagnostics: diags},
		{URI: "file:///w/a<b>&c.py", Diagnostics: []protocol.Diagnostic{odd}},
		{URI: "file:///w/empty.py", Diagnostics: []protocol.Diagnostic{}},
	} {
		var want, got captureRWC
		n, err := jsonrpc2.NewNotification("textDocument/publishDiagnostics", params)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := newStream(&want, t.Logf).Write(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		st := newStream(&got, t.Logf)
		for range 2 { // the second write reuses the buffer
			got.Reset()
			if err := st.notify(context.Background(), "textDocument/publishDiagnostics", params); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("notify wrote %d bytes, Conn.Notify %d:\n%.300s\n%.300s", got.Len(), want.Len(), got.Bytes(), want.Bytes())
		}
	}
}

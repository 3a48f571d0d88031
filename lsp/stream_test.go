package lsp

import (
	stdjson "encoding/json"
	"reflect"
	"testing"

	"go.lsp.dev/jsonrpc2"
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

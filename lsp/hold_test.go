package lsp

import (
	"encoding/json"
	"testing"
	"time"
)

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A version a request still uses survives later edits and is recycled
// only when its last holder lets go; a closed document hands out nothing.
func TestHeldVersionOutlivesEdits(t *testing.T) {
	s := NewServer(Options{Debounce: time.Hour}) // no analysis runs on its own
	err := s.didOpen(mustJSON(t, map[string]any{"textDocument": map[string]any{
		"uri": testURI, "languageId": "python", "version": 1, "text": "import torch\nx = torch.zeros(3)\n",
	}}))
	if err != nil {
		t.Fatal(err)
	}
	d := s.doc(testURI)
	held := d.acquire() // an in-flight request
	for v := 2; v <= 4; v++ {
		err := s.didChange(mustJSON(t, map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": v},
			"contentChanges": []any{map[string]any{"range": rng(1, 16, 1, 17), "text": "4"}, map[string]any{"range": rng(1, 16, 1, 17), "text": "5"}},
		}))
		if err != nil {
			t.Fatal(err)
		}
	}
	if held.file.Root == nil {
		t.Fatal("a held version was released by later edits")
	}
	if calls := held.file.Model().CallsTo("torch.zeros"); len(calls) != 1 || calls[0].Text() != "torch.zeros(3)" {
		t.Fatalf("the held version reads %d calls to torch.zeros", len(calls))
	}
	held.release()
	if held.file.Root != nil {
		t.Error("the old version was not recycled after its last holder let go")
	}
	cur := d.acquire()
	if cur.version != 4 || cur.file.Root == nil || string(cur.file.Src.Bytes) != "import torch\nx = torch.zeros(5)\n" {
		t.Errorf("current version %d: %q", cur.version, cur.file.Src.Bytes)
	}
	cur.release()
	d.close()
	if d.acquire() != nil {
		t.Error("a closed document hands out a snapshot")
	}
	if cur.file.Root != nil {
		t.Error("closing did not recycle the last version")
	}
}

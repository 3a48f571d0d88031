package lsp

import (
	"encoding/json"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/rewrite"
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

// While edits arrive and code actions, hovers and fix-all requests run
// concurrently on older versions, every version's published diagnostics
// are what a fresh parse of its text finds: recycled memory never leaks
// from one version into another.
func TestRecycledVersionsUnderConcurrentRequests(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	text := trainingFile(150)
	c.open(testURI, text, 1)
	c.waitDiags(testURI, 1)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(g)))
			for {
				select {
				case <-stop:
					return
				default:
				}
				line := uint32(rnd.Intn(150))
				var actions []protocol.CodeAction
				var hover *protocol.Hover
				for _, err := range []error{
					c.call("textDocument/codeAction", protocol.CodeActionParams{
						TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
						Range:        rng(int(line), 0, int(line)+5, 0),
					}, &actions),
					c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
						TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
						Position:     protocol.Position{Line: line, Character: 4},
					}}, &hover),
					c.call("textDocument/codeAction", protocol.CodeActionParams{
						TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
						Context:      protocol.CodeActionContext{Only: []protocol.CodeActionKind{SourceFixAll}},
					}, &actions),
				} {
					if err != nil && strings.Contains(err.Error(), "internal error") {
						t.Errorf("a request failed while edits arrived: %v", err)
					}
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()

	rnd := rand.New(rand.NewSource(7))
	fragments := []string{"x", "1", "\n", "(", ")", ":", "torch.cuda.synchronize()\n", "    loss.item()\n", "import xgboost as xgb\n", ""}
	for v := 2; v <= 60; v++ {
		src := rewrite.NewSource("t.py", []byte(text))
		start := rnd.Intn(len(text))
		end := min(len(text), start+rnd.Intn(3))
		sl, sc := src.UTF16Position(start)
		el, ec := src.UTF16Position(end)
		frag := fragments[rnd.Intn(len(fragments))]
		c.change(testURI, int32(v), rng(sl, sc, el, ec), frag)
		text = text[:start] + frag + text[end:]

		got := c.waitDiags(testURI, uint32(v))
		if got.Version != uint32(v) {
			t.Fatalf("waited for version %d, got %d", v, got.Version)
		}
		fresh := rewrite.Parse(uriPath(testURI), []byte(text))
		want := c.srv.engineNow().analyze(fresh)
		if e999, ok := fresh.FirstRejection(); ok {
			want = append(want, e999) // what CPython rejects is published too
		}
		if len(got.Diagnostics) != len(want) {
			t.Fatalf("version %d: %d diagnostics published, a fresh parse finds %d", v, len(got.Diagnostics), len(want))
		}
		for i, d := range got.Diagnostics {
			line, _ := fresh.Src.UTF16Position(want[i].Start)
			if codeOf(d) != want[i].Code || int(d.Range.Start.Line) != line {
				t.Fatalf("version %d, diagnostic %d: %s at line %d, a fresh parse finds %s at line %d",
					v, i, codeOf(d), d.Range.Start.Line, want[i].Code, line)
			}
		}
	}
}

// A change notification that changes nothing makes a version that shares
// the file of the one before: the file must stay alive while either
// version is used.
func TestEmptyChangeSharesTheFile(t *testing.T) {
	s := NewServer(Options{Debounce: time.Hour})
	text := "import torch\nx = torch.zeros(3)\n"
	if err := s.didOpen(mustJSON(t, map[string]any{"textDocument": map[string]any{
		"uri": testURI, "languageId": "python", "version": 1, "text": text,
	}})); err != nil {
		t.Fatal(err)
	}
	d := s.doc(testURI)
	if err := s.didChange(mustJSON(t, map[string]any{
		"textDocument":   map[string]any{"uri": testURI, "version": 2},
		"contentChanges": []any{},
	})); err != nil {
		t.Fatal(err)
	}
	cur := d.acquire()
	defer cur.release()
	if cur.version != 2 || cur.file.Root == nil {
		t.Fatalf("version %d after an empty change: its file was released", cur.version)
	}
	if calls := cur.file.Model().CallsTo("torch.zeros"); len(calls) != 1 {
		t.Fatalf("the current version reads %d calls to torch.zeros", len(calls))
	}
}

// Snapshots that share a file (a reconfigured document) may be analysed
// at the same time: they take turns on the file's lazily built model.
func TestSharedFileAnalysesTakeTurns(t *testing.T) {
	for round := 0; round < 20; round++ {
		f := rewrite.Parse("t.py", []byte(trainingFile(40)))
		hold := newHold(f)
		hold.retain()
		eng := NewServer(Options{}).newEngine()
		a := &snapshot{version: 1, file: f, hold: hold, eng: eng}
		b := &snapshot{version: 1, file: f, hold: hold, eng: eng}
		var wg sync.WaitGroup
		var fa, fb []rewrite.Finding
		wg.Add(2)
		go func() { defer wg.Done(); fa, _ = a.analyze() }()
		go func() { defer wg.Done(); fb, _ = b.analyze() }()
		wg.Wait()
		if len(fa) == 0 || len(fa) != len(fb) {
			t.Fatalf("round %d: the two analyses found %d and %d findings", round, len(fa), len(fb))
		}
		hold.release()
		hold.release()
	}
}

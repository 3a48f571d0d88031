package lsp

// The server's standing adversarial suite (issue 16): random mixes of
// valid requests, notifications with out-of-range and stale edits, hostile
// documents and malformed frames, from fixed seeds with bounded counts.
// Whatever arrives, every well-formed request gets exactly one answer and
// the server exits cleanly on shutdown and exit.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fuzzDocs are the documents the fuzzer opens and edits.
var fuzzDocs = []string{
	"import torch\ns = torch.cuda.amp.GradScaler()\nfor x in loader:\n    loss = model(x)\n    total += loss.item()\n",
	"import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\", \"gpu_id\": 0}\nm = xgb.XGBClassifier(gpu_id=0, **{\"device\": \"cuda\"})\n",
	"\ufeffimport torch; s = torch.cuda.amp.GradScaler()\n",
	"import torch\nprint 'py2'\nexec \"x\"\ny = `x` <> 0777\n",
	"import torch\ny = " + strings.Repeat("-", 20000) + "1\n",
	"import torch\ny = " + strings.Repeat("(", 300) + strings.Repeat(")", 300) + "\n",
	"import torch\r\nx = '😀é\\udc80'; s = torch.cuda.amp.GradScaler()\r\n",
	"import torch\rs = torch.cuda.amp.GradScaler()\r",
	"import torch\nif x:\n        a = 1\n\tb = torch.cuda.amp.GradScaler()\n",
	"import torch\nx = [" + strings.Repeat("torch.cuda.amp.GradScaler(), ", 2000) + "]\n",
	"",
}

var fuzzFragments = []string{"", "x", "\n", "(", ")", "[", ":", "\t", "\r\n", "\r", "😀", "é", "\ufeff", "print 'x'\n", "return 1\n",
	"torch.cuda.synchronize()\n", "    loss.item()\n", "import xgboost as xgb\n", strings.Repeat("-", 12000), "Content-Length: 5\r\n\r\n"}

// fuzzSession drives one server with n random messages.
type fuzzSession struct {
	t       *testing.T
	rnd     *rand.Rand
	conn    net.Conn
	writeMu sync.Mutex
	nextID  int
	sent    map[int]bool   // tracked request ids
	what    map[int]string // what each tracked request was, for messages
	last    string         // the previous message sent
	mu      sync.Mutex
	answers map[int]int // id -> responses seen
	open    map[string]int32
}

func (s *fuzzSession) write(raw string) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(s.conn, raw); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

func jsonBody(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// request sends a well-formed request that must be answered.
func (s *fuzzSession) request(method string, params any) {
	s.nextID++
	id := s.nextID
	s.sent[id] = true
	s.what[id] = method + " after " + s.last
	s.last = method
	s.write(frame(jsonBody(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})))
}

func (s *fuzzSession) notify(method string, params any) {
	s.last = method
	s.write(frame(jsonBody(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})))
}

// read collects the server's messages: counts responses by id, answers
// the server's own requests (configuration, ...).
func (s *fuzzSession) read(done chan<- struct{}) {
	defer close(done)
	in := bufio.NewReader(s.conn)
	for {
		length := -1
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			s.t.Errorf("server sent invalid JSON %q", body)
			return
		}
		_, isCall := m["method"]
		id, hasID := m["id"]
		switch {
		case isCall && hasID && id != nil:
			go s.write(frame(jsonBody(map[string]any{"jsonrpc": "2.0", "id": id, "result": nil})))
		case !isCall && id != nil:
			n, ok := id.(float64)
			if !ok {
				s.t.Errorf("response with id %v", id)
				continue
			}
			s.mu.Lock()
			s.answers[int(n)]++
			s.mu.Unlock()
		}
	}
}

func (s *fuzzSession) uri() string { return fmt.Sprintf("file:///fuzz/d%d.py", s.rnd.Intn(4)) }

func (s *fuzzSession) pos() map[string]any {
	pick := []int{0, 1, 2, 5, 40, 1 << 20}
	return map[string]any{"line": pick[s.rnd.Intn(len(pick))], "character": pick[s.rnd.Intn(len(pick))]}
}

func (s *fuzzSession) rangeAny() map[string]any {
	return map[string]any{"start": s.pos(), "end": s.pos()}
}

// step sends one random message.
func (s *fuzzSession) step() {
	uri := s.uri()
	switch k := s.rnd.Intn(20); k {
	case 0, 1:
		s.open[uri]++
		s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "python", "version": s.open[uri], "text": fuzzDocs[s.rnd.Intn(len(fuzzDocs))]}})
	case 2, 3, 4, 5:
		v := s.open[uri] + 1
		if s.rnd.Intn(6) == 0 {
			v -= 3 // stale
		}
		s.open[uri] = max(s.open[uri], v)
		var changes []any
		for range 1 + s.rnd.Intn(3) {
			frag := fuzzFragments[s.rnd.Intn(len(fuzzFragments))]
			if s.rnd.Intn(8) == 0 {
				changes = append(changes, map[string]any{"text": fuzzDocs[s.rnd.Intn(len(fuzzDocs))]})
			} else {
				changes = append(changes, map[string]any{"range": s.rangeAny(), "text": frag})
			}
		}
		s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v}, "contentChanges": changes})
	case 6:
		s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	case 7, 8:
		s.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": s.pos()})
	case 9, 10:
		s.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": s.rangeAny(),
			"context": map[string]any{"diagnostics": []any{map[string]any{"range": s.rangeAny(), "message": "m", "source": "gpuopt", "code": "AMP002",
				"data": map[string]any{"version": s.rnd.Intn(5), "index": s.rnd.Intn(5) - 1}}}}})
	case 11:
		s.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": s.rangeAny(),
			"context": map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll.gpuopt"}}})
	case 12:
		s.request([]string{"gpuopt/nothing", "textDocument/completion", "workspace/symbol"}[s.rnd.Intn(3)], map[string]any{})
	case 13:
		s.request("textDocument/hover", map[string]any{"textDocument": 12, "position": "x"}) // wrong shapes
	case 14:
		s.notify("$/cancelRequest", map[string]any{"id": s.rnd.Intn(s.nextID + 1)})
	case 15:
		s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gpuopt": map[string]any{
			"select": []any{"AMP", 3, nil}[s.rnd.Intn(3)], "unsafeFixes": s.rnd.Intn(2) == 0, "targetGpu": []string{"h100", "nonsense", ""}[s.rnd.Intn(3)]}}})
	default:
		s.malformed()
	}
}

// malformed sends a broken frame, followed by a tracked request that the
// resynchronising reader must still find.
func (s *fuzzSession) malformed() {
	good := jsonBody(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "textDocument/hover",
		"params": map[string]any{"textDocument": map[string]any{"uri": "file:///x.py"}, "position": map[string]any{"line": 0, "character": 0}}})
	bad := []string{
		"Content-Length: -5\r\n\r\n" + good,
		"Content-Length: banana\r\n\r\n",
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(good)-7, good),
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(good)+1+s.rnd.Intn(20), good),
		good,
		"\x00\xff garbage }{ ",
		"Content-Len",
		frame(`{this is not json`),
		frame(`[{"jsonrpc":"2.0","id":0,"method":"shutdown"}]`),
		frame(`{"jsonrpc":"1.0","id":0,"method":"textDocument/hover"}`),
		frame(`{"jsonrpc":"2.0","id":{"x":1},"method":"textDocument/hover"}`),
		frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[{"range":{"start":{"line":-1}}}]}}`),
		"X-Other: 1\r\n\r\n",
	}[s.rnd.Intn(13)]
	s.write(bad)
	s.last = fmt.Sprintf("bad frame %q", truncate(bad, 60))
	s.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.uri()}, "position": s.pos()})
}

func TestAdversarialLanguageServer(t *testing.T) {
	for seed := range int64(6) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			a, b := net.Pipe()
			srv := NewServer(Options{})
			exited := make(chan int, 1)
			go func() { exited <- srv.Serve(context.Background(), a) }()
			s := &fuzzSession{t: t, rnd: rand.New(rand.NewSource(seed)), conn: b, sent: map[int]bool{}, what: map[int]string{}, answers: map[int]int{}, open: map[string]int32{}}
			readerDone := make(chan struct{})
			go s.read(readerDone)

			s.request("initialize", map[string]any{"capabilities": map[string]any{}})
			s.notify("initialized", map[string]any{})
			for range 300 {
				s.step()
			}
			// Every well-formed request gets its answer.
			deadline := time.Now().Add(20 * time.Second)
			for {
				s.mu.Lock()
				missing := 0
				for id := range s.sent {
					if s.answers[id] == 0 {
						missing++
					}
				}
				s.mu.Unlock()
				if missing == 0 {
					break
				}
				if time.Now().After(deadline) {
					s.mu.Lock()
					for id := range s.sent {
						if s.answers[id] == 0 {
							t.Errorf("request %d unanswered: %s", id, s.what[id])
						}
					}
					s.mu.Unlock()
					t.Fatalf("%d of %d requests unanswered", missing, len(s.sent))
				}
				time.Sleep(20 * time.Millisecond)
			}
			s.request("shutdown", nil)
			s.write(frame(`{"jsonrpc":"2.0","method":"exit"}`))
			select {
			case code := <-exited:
				if code != 0 {
					t.Errorf("exit code %d after shutdown and exit", code)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the server did not exit")
			}
			b.Close()
			<-readerDone
			s.mu.Lock()
			defer s.mu.Unlock()
			for id, n := range s.answers {
				if id != 0 && n != 1 {
					t.Errorf("request %d answered %d times", id, n)
				}
				if id != 0 && !s.sent[id] {
					t.Errorf("an answer to %d, which was never sent", id)
				}
			}
		})
	}
}

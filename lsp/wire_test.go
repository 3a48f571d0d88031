package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// rawConn writes frames by hand and reads the server's replies.
type rawConn struct {
	t  *testing.T
	c  net.Conn
	in *bufio.Reader
}

func (r *rawConn) send(s string) {
	r.t.Helper()
	r.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(r.c, s); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// next reads one message, skipping notifications.
func (r *rawConn) next() map[string]any {
	r.t.Helper()
	for {
		r.c.SetReadDeadline(time.Now().Add(5 * time.Second))
		length := -1
		for {
			line, err := r.in.ReadString('\n')
			if err != nil {
				r.t.Fatalf("read header: %v", err)
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
		if _, err := io.ReadFull(r.in, body); err != nil {
			r.t.Fatalf("read body: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			r.t.Fatalf("server sent invalid JSON %q", body)
		}
		if _, isNotification := m["method"]; !isNotification {
			return m
		}
	}
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// TestMalformedMessagesNeverCrash sends broken frames and bodies; each gets
// an error reply (or is skipped) and the server keeps serving.
func TestMalformedMessagesNeverCrash(t *testing.T) {
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

	r.send(frame(`{this is not json`))
	if m := r.next(); errCode(m) != -32700 || m["id"] != nil {
		t.Errorf("bad JSON answered %v", m)
	}
	r.send(frame(`{"jsonrpc":"2.0","result":1}`)) // a response without id
	if m := r.next(); errCode(m) != -32600 {
		t.Errorf("invalid message answered %v", m)
	}
	r.send("Content-Length: banana\r\n\r\n")
	if m := r.next(); errCode(m) != -32700 {
		t.Errorf("bad header answered %v", m)
	}
	r.send("Some-Header-Without-Length: 1\r\n\r\n")
	if m := r.next(); errCode(m) != -32700 {
		t.Errorf("missing length answered %v", m)
	}
	// Well-formed JSON with params of the wrong shape.
	r.send(frame(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":12,"position":"x"}}`))
	if m := r.next(); errCode(m) != -32602 || m["id"] != float64(7) {
		t.Errorf("bad params answered %v", m)
	}
	r.send(frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[{"range":{"start":{"line":-1}}}]}}`))
	r.send(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.py","version":1,"text":"import xgboost as xgb\nx = {\"tree_method\": \"gpu_hist\"}\n"}}}`))
	// A change far outside the document clamps instead of panicking.
	r.send(frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///x.py","version":2},"contentChanges":[{"range":{"start":{"line":99,"character":99},"end":{"line":0,"character":400}},"text":"#"}]}}`))
	r.send(frame(`{"jsonrpc":"2.0","id":8,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///x.py"},"range":{"start":{"line":500,"character":0},"end":{"line":900,"character":3}},"context":{"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"message":"m","source":"gpuopt","code":"XGB002","data":{"version":2,"index":99}}]}}}`))
	if m := r.next(); m["id"] != float64(8) || m["error"] != nil {
		t.Errorf("codeAction after garbage answered %v", m)
	}
	r.send(frame(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`))
	if m := r.next(); m["id"] != float64(9) || m["error"] != nil {
		t.Errorf("shutdown answered %v", m)
	}
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

// TestBinaryStdio builds gpuopt and drives `gpuopt lsp` over its stdin and
// stdout like an editor does.
func TestBinaryStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "gpuopt")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "../cmd/gpuopt")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "lsp", "--stdio")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := connectClient(t, nil, nil, StdioConn(stdout, stdin), false)
	res := c.initialize(map[string]any{"targetGpu": "h100"}, "", nil)
	if res["capabilities"].(map[string]any)["positionEncoding"] != "utf-16" {
		t.Errorf("capabilities: %v", res["capabilities"])
	}
	c.open(testURI, xgbSrc, 1)
	p := c.waitDiags(testURI, 1)
	d := findDiag(p.Diagnostics, "XGB002")
	if d == nil || d.Source != "gpuopt" {
		t.Fatalf("diagnostics: %+v", p.Diagnostics)
	}
	actions := c.actionsFor(*d)
	fix := findAction(actions, func(a protocol.CodeAction) bool {
		return a.Kind == protocol.QuickFix && a.IsPreferred && strings.Contains(a.Title, "XGB002")
	})
	if fix == nil {
		t.Fatalf("no preferred XGB002 quick fix: %+v", actions)
	}
	if got := applyTextEdits(t, xgbSrc, editsFor(fix, testURI)); got != xgbFixed {
		t.Errorf("quick fix gives:\n%s", got)
	}
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err := <-waitErr:
		if err != nil {
			t.Fatalf("gpuopt lsp exited with %v; stderr:\n%s", err, stderr.String())
		}
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("gpuopt lsp did not exit; stderr:\n%s", stderr.String())
	}
	_ = os.Stderr
}

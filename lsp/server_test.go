package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

const (
	testURI  = "file:///tmp/project/train.py"
	xgbSrc   = "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\", \"max_depth\": 6}\n"
	xgbFixed = "import xgboost as xgb\nparams = {\"tree_method\": \"hist\", \"device\": \"cuda\", \"max_depth\": 6}\n"
)

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func TestInitializeAdvertisesWhatIsImplemented(t *testing.T) {
	c := newTestClient(t, Options{})
	res := c.initialize(nil, "", nil)
	caps := res["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" {
		t.Errorf("positionEncoding = %v", caps["positionEncoding"])
	}
	sync := caps["textDocumentSync"].(map[string]any)
	if sync["openClose"] != true || sync["change"] != float64(2) {
		t.Errorf("textDocumentSync = %v", sync)
	}
	if caps["hoverProvider"] != true {
		t.Errorf("hoverProvider = %v", caps["hoverProvider"])
	}
	ca := caps["codeActionProvider"].(map[string]any)
	if fmt.Sprint(ca["codeActionKinds"]) != "[quickfix source.fixAll.gpuopt]" {
		t.Errorf("codeActionKinds = %v", ca["codeActionKinds"])
	}
	cmds := caps["executeCommandProvider"].(map[string]any)["commands"]
	if fmt.Sprint(cmds) != "[gpuopt.showHardware gpuopt.fixAll]" {
		t.Errorf("commands = %v", cmds)
	}
	for _, k := range []string{"completionProvider", "definitionProvider", "documentFormattingProvider", "renameProvider"} {
		if _, ok := caps[k]; ok {
			t.Errorf("advertises %s, which is not implemented", k)
		}
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d after shutdown, want 0", code)
	}
}

func TestDiagnosticAndQuickFix(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	c.open(testURI, xgbSrc, 1)
	p := c.waitDiags(testURI, 1)
	d := findDiag(p.Diagnostics, "XGB002")
	if d == nil {
		t.Fatalf("no XGB002 diagnostic in %+v", p.Diagnostics)
	}
	if d.Source != "gpuopt" || d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("source %q severity %v", d.Source, d.Severity)
	}
	if d.CodeDescription == nil || string(d.CodeDescription.Href) != "https://github.com/gpuopt/gpuopt/blob/main/patterns/RULES.md#xgb002" {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}
	col := utf16Len(`params = {"tree_method": `)
	if d.Range.Start.Line != 1 || int(d.Range.Start.Character) != col {
		t.Errorf("range = %+v, want start 1:%d", d.Range, col)
	}
	data, _ := d.Data.(map[string]any)
	if data["version"] != float64(1) || data["fix"] != "safe" || data["index"] != float64(0) {
		t.Errorf("data = %v", d.Data)
	}

	actions := c.actionsFor(*d)
	fix := findAction(actions, func(a protocol.CodeAction) bool {
		return a.Kind == protocol.QuickFix && strings.Contains(a.Title, "XGB002") && a.Edit != nil && !strings.HasPrefix(a.Title, "Disable")
	})
	if fix == nil {
		t.Fatalf("no XGB002 quick fix in %+v", actions)
	}
	if !fix.IsPreferred || !strings.Contains(fix.Title, "(safe)") {
		t.Errorf("quick fix %q preferred=%v", fix.Title, fix.IsPreferred)
	}
	if len(fix.Diagnostics) != 1 || codeOf(fix.Diagnostics[0]) != "XGB002" {
		t.Errorf("quick fix diagnostics = %+v", fix.Diagnostics)
	}
	got := applyTextEdits(t, xgbSrc, editsFor(fix, testURI))
	if got != xgbFixed {
		t.Fatalf("after quick fix:\n%s\nwant:\n%s", got, xgbFixed)
	}
	if f := rewrite.Parse("x.py", []byte(got)); f.HasSyntaxErrors() {
		t.Fatalf("fixed code has a syntax error: %s", f.SyntaxError())
	}

	// The client applies it; the diagnostic goes away.
	c.changeFull(testURI, 2, got)
	if p := c.waitDiags(testURI, 2); findDiag(p.Diagnostics, "XGB002") != nil {
		t.Errorf("XGB002 still reported after the fix: %+v", p.Diagnostics)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestIncrementalNonASCII edits the document incrementally with text whose
// UTF-16 length differs from its byte and rune length, and checks that the
// server's copy, its positions and its fixes stay right.
func TestIncrementalNonASCII(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	text := xgbSrc
	c.open(testURI, text, 1)
	c.waitDiags(testURI, 1)

	edit := func(version int32, r protocol.Range, newText string) {
		t.Helper()
		text = applyTextEdits(t, text, []protocol.TextEdit{{Range: r, NewText: newText}})
		c.change(testURI, version, r, newText)
	}
	// A comment line with an accent and an emoji (a surrogate pair) before
	// the finding.
	edit(2, rng(1, 0, 1, 0), "# café 🚀 tuned\n")
	// Edit after the emoji on that line: "tuned" -> "retuned".
	comment := "# café 🚀 "
	edit(3, rng(1, utf16Len(comment), 1, utf16Len(comment)), "re")
	// Non-ASCII on the finding's own line, before the finding.
	prefix := `params = {`
	edit(4, rng(2, utf16Len(prefix), 2, utf16Len(prefix)), `"é🚀": 1, `)

	p := c.waitDiags(testURI, 4)
	d := findDiag(p.Diagnostics, "XGB002")
	if d == nil {
		t.Fatalf("no XGB002 after edits: %+v", p.Diagnostics)
	}
	want := utf16Len(`params = {"é🚀": 1, "tree_method": `)
	if d.Range.Start.Line != 2 || int(d.Range.Start.Character) != want || int(d.Range.End.Character) != want+utf16Len(`"gpu_hist"`) {
		t.Errorf("range = %+v, want line 2 from %d", d.Range, want)
	}
	// The server's copy is the client's, and its incremental tree finds
	// what a fresh parse finds.
	snap := c.srv.doc(testURI).acquire()
	defer snap.release()
	if string(snap.file.Src.Bytes) != text {
		t.Fatalf("server text:\n%q\nclient text:\n%q", snap.file.Src.Bytes, text)
	}
	fresh := rewrite.Parse("x.py", []byte(text))
	if snap.file.Root.End != fresh.Root.End || len(snap.file.OfType("string")) != len(fresh.OfType("string")) {
		t.Errorf("incremental tree differs from a fresh parse")
	}

	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
		Range:        d.Range,
	}, &actions)
	fix := findAction(actions, func(a protocol.CodeAction) bool { return strings.HasPrefix(a.Title, "Fix XGB002") })
	if fix == nil {
		t.Fatalf("no quick fix: %+v", actions)
	}
	got := applyTextEdits(t, text, editsFor(fix, testURI))
	wantText := "import xgboost as xgb\n# café 🚀 retuned\nparams = {\"é🚀\": 1, \"tree_method\": \"hist\", \"device\": \"cuda\", \"max_depth\": 6}\n"
	if got != wantText {
		t.Errorf("after fix:\n%s\nwant:\n%s", got, wantText)
	}

	// A stale change (an older version) is ignored.
	c.change(testURI, 3, rng(0, 0, 0, 0), "garbage ")
	c.change(testURI, 5, rng(0, 0, 0, 0), "")
	c.waitDiags(testURI, 5)
	after := c.srv.doc(testURI).acquire()
	defer after.release()
	if s := string(after.file.Src.Bytes); s != text {
		t.Errorf("stale change applied: %q", s)
	}
}

func TestFixAll(t *testing.T) {
	src := "import xgboost as xgb\n" +
		"params = {\"tree_method\": \"gpu_hist\", \"max_depth\": 6}\n" +
		"other = dict(tree_method=\"gpu_hist\")\n"
	want := "import xgboost as xgb\n" +
		"params = {\"tree_method\": \"hist\", \"device\": \"cuda\", \"max_depth\": 6}\n" +
		"other = dict(tree_method=\"hist\", device=\"cuda\")\n"
	for _, resolve := range []bool{false, true} {
		t.Run(fmt.Sprintf("resolve=%v", resolve), func(t *testing.T) {
			c := newTestClient(t, Options{})
			var caps map[string]any
			if resolve {
				caps = map[string]any{"textDocument": map[string]any{"codeAction": map[string]any{
					"resolveSupport": map[string]any{"properties": []string{"edit"}}}}}
			}
			c.initialize(nil, "", caps)
			c.open(testURI, src, 1)
			if p := c.waitDiags(testURI, 1); len(p.Diagnostics) < 2 {
				t.Fatalf("diagnostics: %+v", p.Diagnostics)
			}
			var actions []protocol.CodeAction
			c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
				Range:        rng(0, 0, 0, 0),
				Context:      protocol.CodeActionContext{Only: []protocol.CodeActionKind{"source.fixAll"}},
			}, &actions)
			if len(actions) != 1 || actions[0].Kind != SourceFixAll {
				t.Fatalf("actions = %+v", actions)
			}
			a := actions[0]
			if resolve {
				if a.Edit != nil {
					t.Fatalf("edit computed eagerly for a resolving client")
				}
				var resolved protocol.CodeAction
				c.mustCall("codeAction/resolve", a, &resolved)
				a = resolved
			}
			if got := applyTextEdits(t, src, editsFor(&a, testURI)); got != want {
				t.Errorf("fix all:\n%s\nwant:\n%s", got, want)
			}
		})
	}

	t.Run("general request without resolve: command", func(t *testing.T) {
		c := newTestClient(t, Options{})
		c.initialize(nil, "", nil)
		c.open(testURI, src, 1)
		c.waitDiags(testURI, 1)
		var actions []protocol.CodeAction
		c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
			Range:        rng(0, 0, 0, 0),
		}, &actions)
		a := findAction(actions, func(a protocol.CodeAction) bool { return a.Kind == SourceFixAll })
		if a == nil || a.Command == nil || a.Command.Command != CommandFixAll || fmt.Sprint(a.Command.Arguments) != "["+testURI+"]" {
			t.Fatalf("fix-all action = %+v", a)
		}
	})

	t.Run("command", func(t *testing.T) {
		c := newTestClient(t, Options{})
		c.initialize(nil, "", nil)
		c.open(testURI, src, 1)
		c.waitDiags(testURI, 1)
		var res map[string]any
		c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: CommandFixAll, Arguments: []any{testURI}}, &res)
		if res["applied"] != true || res["fixes"] != float64(2) {
			t.Errorf("result = %v", res)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.edits) != 1 {
			t.Fatalf("applyEdit requests: %d", len(c.edits))
		}
		if got := applyTextEdits(t, src, c.edits[0].Edit.Changes[testURI]); got != want {
			t.Errorf("fix all command:\n%s\nwant:\n%s", got, want)
		}
	})
}

func TestDisableForLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{xgbSrc, "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\", \"max_depth\": 6}  # gpuopt: ignore[XGB002]\n"},
		{
			"import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}  # gpuopt: ignore[XGB001]\n",
			"import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}  # gpuopt: ignore[XGB001, XGB002]\n",
		},
		{
			"import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}  # tuned é\n",
			"import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}  # tuned é  # gpuopt: ignore[XGB002]\n",
		},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			c := newTestClient(t, Options{})
			c.initialize(nil, "", nil)
			c.open(testURI, tc.in, 1)
			d := findDiag(c.waitDiags(testURI, 1).Diagnostics, "XGB002")
			if d == nil {
				t.Fatal("no XGB002")
			}
			var actions []protocol.CodeAction
			c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
				Range:        d.Range,
				Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*d}, Only: []protocol.CodeActionKind{protocol.QuickFix}},
			}, &actions)
			a := findAction(actions, func(a protocol.CodeAction) bool { return a.Title == "Disable XGB002 for this line" })
			if a == nil {
				t.Fatalf("no disable action: %+v", actions)
			}
			got := applyTextEdits(t, tc.in, editsFor(a, testURI))
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			c.changeFull(testURI, 2, got)
			if p := c.waitDiags(testURI, 2); findDiag(p.Diagnostics, "XGB002") != nil {
				t.Errorf("still reported after disabling: %+v", p.Diagnostics)
			}
		})
	}
}

func TestHoverShowsDocsAndHardware(t *testing.T) {
	var calls int
	var mu sync.Mutex
	c := newTestClient(t, Options{Hardware: h100(&calls, &mu)})
	c.initialize(nil, "", nil)
	c.open(testURI, xgbSrc, 1)
	d := findDiag(c.waitDiags(testURI, 1).Diagnostics, "XGB002")
	var h protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: testURI},
		Position:     protocol.Position{Line: d.Range.Start.Line, Character: d.Range.Start.Character + 2},
	}}, &h)
	v := h.Contents.Value
	if h.Contents.Kind != protocol.Markdown || !contains(v, "XGB002", "What it does", "Measured gain", "Hardware profile assumed", "NVIDIA H100 80GB HBM3 (sm_90)", "RULES.md#xgb002") {
		t.Errorf("hover:\n%s", v)
	}
	if h.Range == nil || *h.Range != d.Range {
		t.Errorf("hover range %+v, want %+v", h.Range, d.Range)
	}
	// No finding under the cursor: no hover.
	var raw json.RawMessage
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: testURI}, Position: protocol.Position{Line: 0, Character: 2},
	}}, &raw)
	if string(raw) != "null" && len(raw) != 0 {
		t.Errorf("hover off a finding = %s", raw)
	}
	var text string
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: CommandShowHardware}, &text)
	if !strings.Contains(text, "H100") {
		t.Errorf("showHardware = %q", text)
	}
	c.changeFull(testURI, 2, xgbSrc+"\n")
	c.waitDiags(testURI, 2)
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Errorf("hardware profile read %d times, want once (cached)", calls)
	}
}

func TestConfiguration(t *testing.T) {
	t.Run("initializationOptions and didChangeConfiguration", func(t *testing.T) {
		c := newTestClient(t, Options{})
		c.initialize(map[string]any{"ignore": []string{"XGB002"}}, "", nil)
		c.open(testURI, xgbSrc, 1)
		if p := c.waitDiags(testURI, 1); len(p.Diagnostics) != 0 {
			t.Errorf("ignored rule reported: %+v", p.Diagnostics)
		}
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gpuopt": map[string]any{"select": []string{"XGB002"}, "ignore": []string{}}}})
		if p := c.waitDiags(testURI, 1); findDiag(p.Diagnostics, "XGB002") == nil {
			t.Errorf("XGB002 not reported after selecting it: %+v", p.Diagnostics)
		}
	})
	t.Run("pyproject", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.gpuopt]\nignore = [\"XGB002\"]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := newTestClient(t, Options{})
		root := "file://" + filepath.ToSlash(dir)
		c.initialize(nil, root, nil)
		uri := root + "/train.py"
		c.open(uri, xgbSrc, 1)
		if p := c.waitDiags(uri, 1); len(p.Diagnostics) != 0 {
			t.Errorf("rule ignored in pyproject.toml reported: %+v", p.Diagnostics)
		}
		// The editor's settings win over the file.
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"select": []string{"XGB"}, "unsafeFixes": true}})
		if p := c.waitDiags(uri, 1); findDiag(p.Diagnostics, "XGB002") == nil {
			t.Errorf("select from settings did not replace the file's selection: %+v", p.Diagnostics)
		}
	})
}

func TestLifecycleErrors(t *testing.T) {
	c := newTestClient(t, Options{})
	err := c.call("textDocument/hover", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Errorf("before initialize: %v", err)
	}
	c.initialize(nil, "", nil)
	err = c.call("textDocument/definitelyNotAMethod", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: %v (code %d), want MethodNotFound", err, rpcCode(err))
	}
	err = c.call("textDocument/codeAction", "not an object", nil)
	if rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("bad params: %v", err)
	}
	// Unknown notifications and notifications about unknown documents are
	// ignored; the server still answers.
	c.notify("$/setTrace", map[string]any{"value": "off"})
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///nope.py", "version": 3}})
	c.notify("textDocument/didOpen", 42)
	c.mustCall("shutdown", nil, nil)
	if err := c.call("textDocument/hover", map[string]any{}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("after shutdown: %v", err)
	}
	c.notify("exit", nil)
	if code := <-c.done; code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(nil, "", nil)
	c.notify("exit", nil)
	select {
	case code := <-c.done:
		if code != 1 {
			t.Errorf("exit code %d without shutdown, want 1", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit")
	}
}

func TestCancelRequest(t *testing.T) {
	release := make(chan struct{})
	c := newTestClient(t, Options{Hardware: func(string, string) (patterns.GPU, string, error) {
		<-release
		return patterns.GPU{}, "", nil
	}})
	c.initialize(nil, "", nil) // request id 1
	c.open(testURI, xgbSrc, 1) // analysis blocks on the hardware profile
	errc := make(chan error, 1)
	go func() {
		errc <- c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: testURI}, Position: protocol.Position{Line: 1, Character: 28},
		}}, nil) // request id 2
	}()
	time.Sleep(50 * time.Millisecond)
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	time.Sleep(20 * time.Millisecond)
	close(release)
	select {
	case err := <-errc:
		if rpcCode(err) != protocol.CodeRequestCancelled {
			t.Errorf("cancelled hover answered %v, want RequestCancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled request never answered")
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestDebounce(t *testing.T) {
	c := newTestClient(t, Options{Debounce: 40 * time.Millisecond})
	c.initialize(nil, "", nil)
	c.open(testURI, xgbSrc, 1)
	c.waitDiags(testURI, 1)
	for v := int32(2); v <= 6; v++ {
		c.changeFull(testURI, v, xgbSrc+strings.Repeat("\n", int(v)))
	}
	p := c.waitDiags(testURI, 2)
	if p.Version != 6 {
		t.Errorf("first diagnostics after a burst of changes are for version %d, want only the last (6)", p.Version)
	}
	select {
	case p := <-c.diags:
		t.Errorf("extra diagnostics published for version %d", p.Version)
	case <-time.After(150 * time.Millisecond):
	}
}

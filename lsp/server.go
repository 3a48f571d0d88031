package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// DefaultDebounce is how long the server waits after the last change to a
// document before analysing it and publishing diagnostics.
const DefaultDebounce = 75 * time.Millisecond

// Command identifiers for workspace/executeCommand.
const (
	// CommandShowHardware returns the hardware profile as text.
	CommandShowHardware = "gpuopt.showHardware"
	// CommandFixAll applies all safe fixes (and unsafe ones when the user
	// opted in) to the document whose URI is its one argument, through
	// workspace/applyEdit.
	CommandFixAll = "gpuopt.fixAll"
)

// SourceFixAll is the code action kind of "apply every safe fix".
const SourceFixAll = protocol.CodeActionKind("source.fixAll.gpuopt")

// Options configure a Server. The zero value works: no debounce, no GPU
// known, default library versions.
type Options struct {
	// Debounce delays analysis after a change; 0 analyses at once.
	Debounce time.Duration
	// Hardware resolves the GPU rules are gated on and describes the
	// profile for people. explicit is the target the editor configured
	// (it wins over a live GPU), config the target-gpu of pyproject.toml.
	// The server calls it lazily, on the first analysis, and caches the
	// answer per (explicit, config).
	Hardware func(explicit, config string) (patterns.GPU, string, error)
	// Versions reads the library versions the rules assume from the
	// workspace configuration and root directory.
	Versions func(cfg workspace.Config, root string) (patterns.Versions, error)
	// NearestVersions, when set, returns for a configuration the lookup of
	// the versions pinned nearest to a file (patterns.Env.VersionsFor).
	NearestVersions func(cfg workspace.Config) func(path string) (patterns.Versions, bool)
	// Log receives the server's own log lines (stderr for stdio servers).
	Log io.Writer
	// Version is reported in serverInfo.
	Version string
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// Server is one language server session.
type Server struct {
	opts Options
	conn jsonrpc2.Conn
	// stream is conn's stream: diagnostics are written to it directly
	// (publishDiagnostics).
	stream *stream

	mu         sync.Mutex
	state      lifecycle
	docs       map[protocol.DocumentURI]*document
	notebooks  map[protocol.DocumentURI]*nbDoc // open notebooks (LSP 3.17 notebook sync)
	cellOwner  map[protocol.DocumentURI]*nbDoc // each open notebook cell's notebook
	root       string
	initOpts   json.RawMessage // initializationOptions
	changeOpts json.RawMessage // the last didChangeConfiguration settings
	eng        *engine
	resolve    bool // the client resolves code actions lazily (edit)
	hw         map[[2]string]*hwResult
	// project indexes the workspace's modules for the rules (what a file
	// imports from its siblings); made at initialize.
	project *workspace.Project
	exit    chan int
	exited  bool

	reqMu   sync.Mutex
	pending map[string]context.CancelFunc

	logMu sync.Mutex
}

type hwResult struct {
	once sync.Once
	gpu  patterns.GPU
	text string
	err  error
}

// NewServer returns a server with the given options.
func NewServer(opts Options) *Server {
	return &Server{
		opts:      opts,
		docs:      map[protocol.DocumentURI]*document{},
		notebooks: map[protocol.DocumentURI]*nbDoc{},
		cellOwner: map[protocol.DocumentURI]*nbDoc{},
		hw:        map[[2]string]*hwResult{},
		exit:      make(chan int, 1),
		pending:   map[string]context.CancelFunc{},
	}
}

// Serve runs the protocol on rwc until the client sends exit or closes the
// stream. It returns the process exit code the specification asks for: 0
// when exit followed shutdown, 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	s.stream = newStream(rwc, s.logf)
	s.conn = jsonrpc2.NewConn(s.stream)
	s.mu.Lock()
	s.eng = s.newEngine()
	s.mu.Unlock()
	s.conn.Go(ctx, s.handle)
	code := 1
	select {
	case code = <-s.exit:
	case <-s.conn.Done():
		select {
		case code = <-s.exit:
		default:
			if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) {
				s.logf("connection closed: %v", err)
			}
		}
	case <-ctx.Done():
	}
	s.stopAll()
	s.conn.Close()
	return code
}

// StdioConn joins a reader and a writer (os.Stdin, os.Stdout) into the
// stream Serve expects.
func StdioConn(r io.ReadCloser, w io.WriteCloser) io.ReadWriteCloser {
	return &stdio{r, w}
}

type stdio struct {
	io.ReadCloser
	w io.WriteCloser
}

func (s *stdio) Write(p []byte) (int, error) { return s.w.Write(p) }
func (s *stdio) Close() error {
	err := s.ReadCloser.Close()
	if werr := s.w.Close(); err == nil {
		err = werr
	}
	return err
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opts.Log, "gpuopt lsp: "+format+"\n", args...)
}

func (s *Server) stopAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.stop()
	}
	for _, nb := range s.notebooks {
		nb.stop(false)
	}
}

// errorf builds a JSON-RPC error the client sees.
func errorf(code jsonrpc2.Code, format string, args ...any) error {
	return jsonrpc2.Errorf(code, format, args...)
}

// handle is the connection's one handler. It runs on the reading
// goroutine: notifications are handled in order right here (they are
// cheap: a document edit and an incremental reparse), requests other than
// the lifecycle ones run on their own goroutine so that $/cancelRequest can
// reach them. It never returns an error: that would close the connection.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	replied := false
	once := func(ctx context.Context, result any, err error) error {
		if replied {
			return nil
		}
		replied = true
		return reply(ctx, result, err)
	}
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", req.Method(), r, debug.Stack())
			if isCall {
				once(ctx, nil, errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
			}
		}
	}()
	method := req.Method()
	params := req.Params()

	s.mu.Lock()
	state := s.state
	s.mu.Unlock()

	if method == "exit" {
		s.mu.Lock()
		if !s.exited {
			s.exited = true
			code := 1
			if state == stateShutdown {
				code = 0
			}
			s.exit <- code
		}
		s.mu.Unlock()
		return nil
	}
	if !isCall {
		if state != stateInitialized {
			return nil // notifications before initialize or after shutdown are dropped
		}
		s.notification(ctx, method, params)
		return nil
	}

	switch {
	case method == "initialize":
		if state != stateNew {
			return once(ctx, nil, errorf(jsonrpc2.InvalidRequest, "initialize sent twice"))
		}
		res, err := s.initialize(params)
		return once(ctx, res, err)
	case state == stateNew:
		return once(ctx, nil, errorf(jsonrpc2.ServerNotInitialized, "server not initialized: %s before initialize", method))
	case state == stateShutdown:
		return once(ctx, nil, errorf(jsonrpc2.InvalidRequest, "%s after shutdown", method))
	case method == "shutdown":
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		s.stopAll()
		return once(ctx, nil, nil)
	}

	h := s.requestHandler(method)
	if h == nil {
		return once(ctx, nil, errorf(jsonrpc2.MethodNotFound, "method not found: %s", method))
	}
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(ctx)
	s.reqMu.Lock()
	s.pending[key] = cancel
	s.reqMu.Unlock()
	go func() {
		defer func() {
			s.reqMu.Lock()
			delete(s.pending, key)
			s.reqMu.Unlock()
			cancel()
		}()
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
				reply(ctx, nil, errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r))
			}
		}()
		if rctx.Err() != nil {
			reply(ctx, nil, protocol.ErrRequestCancelled)
			return
		}
		res, err := h(rctx, params)
		if rctx.Err() != nil && ctx.Err() == nil {
			reply(ctx, nil, protocol.ErrRequestCancelled)
			return
		}
		reply(ctx, res, err)
	}()
	return nil
}

func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%#v", id) }

type requestFunc func(ctx context.Context, params json.RawMessage) (any, error)

func (s *Server) requestHandler(method string) requestFunc {
	switch method {
	case "textDocument/codeAction":
		return s.codeAction
	case "codeAction/resolve":
		return s.resolveCodeAction
	case "textDocument/hover":
		return s.hover
	case "workspace/executeCommand":
		return s.executeCommand
	}
	return nil
}

func (s *Server) notification(ctx context.Context, method string, params json.RawMessage) {
	var err error
	switch method {
	case "initialized":
		s.showWarnings(ctx, s.engineNow())
	case "$/cancelRequest":
		var p struct {
			ID jsonrpc2.ID `json:"id"`
		}
		if err = json.Unmarshal(params, &p); err == nil {
			s.reqMu.Lock()
			cancel := s.pending[idKey(p.ID)]
			s.reqMu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
	case "textDocument/didOpen":
		err = s.didOpen(params)
	case "textDocument/didChange":
		err = s.didChange(params)
	case "textDocument/didClose":
		err = s.didClose(ctx, params)
	case "workspace/didChangeConfiguration":
		err = s.didChangeConfiguration(params)
	case "notebookDocument/didOpen":
		err = s.didOpenNotebook(params)
	case "notebookDocument/didChange":
		err = s.didChangeNotebook(params)
	case "notebookDocument/didClose":
		err = s.didCloseNotebook(ctx, params)
	case "notebookDocument/didSave":
		// The server reads the cells it was sent, not the file: a save
		// changes nothing it knows.
	default:
		// Unknown notifications ($/setTrace, didSave, ...) are ignored, as
		// the specification asks.
	}
	if err != nil {
		s.logf("%s: %v", method, err)
	}
}

// decode unmarshals params, answering InvalidParams when they do not fit.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return errorf(jsonrpc2.InvalidParams, "missing params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// initializeParams is the part of InitializeParams the server reads,
// decoded leniently: clients newer than protocol v0.12.0 send capability
// shapes its structs do not expect.
type initializeParams struct {
	RootURI               string          `json:"rootUri"`
	RootPath              string          `json:"rootPath"`
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	WorkspaceFolders      []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
	Capabilities struct {
		TextDocument struct {
			CodeAction struct {
				ResolveSupport *struct {
					Properties []string `json:"properties"`
				} `json:"resolveSupport"`
			} `json:"codeAction"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

// initializeResult adds positionEncoding (LSP 3.17), which protocol
// v0.12.0 predates.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding string `json:"positionEncoding,omitempty"`
	// NotebookDocumentSync (LSP 3.17) asks the client to send Jupyter
	// notebooks' Python cells through notebookDocument/* (notebook.go).
	NotebookDocumentSync any `json:"notebookDocumentSync,omitempty"`
}

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, errorf(jsonrpc2.InvalidParams, "invalid initialize params: %v", err)
		}
	}
	root := ""
	switch {
	case p.RootURI != "":
		root = uriPath(protocol.DocumentURI(p.RootURI))
	case len(p.WorkspaceFolders) > 0:
		root = uriPath(protocol.DocumentURI(p.WorkspaceFolders[0].URI))
	default:
		root = p.RootPath
	}
	resolve := false
	if rs := p.Capabilities.TextDocument.CodeAction.ResolveSupport; rs != nil {
		for _, prop := range rs.Properties {
			if prop == "edit" {
				resolve = true
			}
		}
	}
	s.mu.Lock()
	s.root = root
	s.project = workspace.NewProject(root)
	s.initOpts = p.InitializationOptions
	s.resolve = resolve
	s.eng = s.newEngine()
	s.state = stateInitialized
	s.mu.Unlock()

	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	caps := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindIncremental,
		},
		HoverProvider: true,
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, SourceFixAll},
			ResolveProvider: true,
		},
		ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
			Commands: []string{CommandShowHardware, CommandFixAll},
		},
	}
	return &initializeResult{
		Capabilities: serverCapabilities{ServerCapabilities: caps, PositionEncoding: "utf-16", NotebookDocumentSync: notebookSelector},
		ServerInfo:   &protocol.ServerInfo{Name: "gpuopt", Version: version},
	}, nil
}

func uriPath(u protocol.DocumentURI) string {
	if !strings.HasPrefix(string(u), "file:") {
		return ""
	}
	defer func() { recover() }() // uri.Filename panics on URIs it cannot read
	return u.Filename()
}

// showWarnings tells the user about configuration problems (an unknown
// rule code, a broken pyproject.toml).
func (s *Server) showWarnings(ctx context.Context, e *engine) {
	if e == nil || len(e.warnings) == 0 {
		return
	}
	s.conn.Notify(ctx, "window/showMessage", &protocol.ShowMessageParams{
		Type:    protocol.MessageTypeWarning,
		Message: "gpuopt: " + strings.Join(e.warnings, "; "),
	})
}

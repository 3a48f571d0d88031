package lsp

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// clientSettings are the settings an editor sends, in
// initializationOptions or workspace/didChangeConfiguration, either flat or
// under a "gpuopt" key. Nil fields are not set.
type clientSettings struct {
	Select      *[]string
	Ignore      *[]string
	UnsafeFixes *bool
	TargetGPU   *string
}

// parseSettings reads settings leniently: keys match case-insensitively
// and without '-' or '_' ("unsafeFixes", "unsafe-fixes", "unsafe_fixes"),
// lists may also be comma-separated strings, and values of the wrong type
// are ignored rather than failing the whole configuration.
func parseSettings(raw json.RawMessage) clientSettings {
	var cs clientSettings
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return cs
	}
	for k, v := range m {
		if normKey(k) == "gpuopt" {
			var inner map[string]json.RawMessage
			if json.Unmarshal(v, &inner) == nil {
				m = inner
			}
			break
		}
	}
	for k, v := range m {
		switch normKey(k) {
		case "select":
			if l, ok := stringList(v); ok {
				cs.Select = &l
			}
		case "ignore":
			if l, ok := stringList(v); ok {
				cs.Ignore = &l
			}
		case "unsafefixes":
			var b bool
			if json.Unmarshal(v, &b) == nil {
				cs.UnsafeFixes = &b
			}
		case "targetgpu":
			var str string
			if json.Unmarshal(v, &str) == nil {
				cs.TargetGPU = &str
			}
		}
	}
	return cs
}

func normKey(k string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(k))
}

func stringList(v json.RawMessage) ([]string, bool) {
	var l []string
	if json.Unmarshal(v, &l) == nil {
		return l, true
	}
	var str string
	if json.Unmarshal(v, &str) == nil {
		var out []string
		for _, p := range strings.Split(str, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, true
	}
	return nil, false
}

// over lays o's set fields over cs.
func (cs clientSettings) over(o clientSettings) clientSettings {
	if o.Select != nil {
		cs.Select = o.Select
	}
	if o.Ignore != nil {
		cs.Ignore = o.Ignore
	}
	if o.UnsafeFixes != nil {
		cs.UnsafeFixes = o.UnsafeFixes
	}
	if o.TargetGPU != nil {
		cs.TargetGPU = o.TargetGPU
	}
	return cs
}

// engine is one resolved configuration: what runs, what fixes apply in
// batch, and the environment rules are gated on (computed on first use).
type engine struct {
	sel      patterns.Selection
	unsafe   bool
	explicit string // target GPU from the editor
	config   string // target-gpu from pyproject.toml
	versions patterns.Versions
	// versionsFor is the per-file pin lookup (nil: versions for all).
	versionsFor func(path string) (patterns.Versions, bool)
	// torchExplicit: the configuration sets the torch version.
	torchExplicit bool
	srv           *Server
	warnings      []string

	envOnce sync.Once
	env     *patterns.Env
}

// newEngine resolves the configuration: pyproject.toml's [tool.gpuopt] of
// the workspace root, then initializationOptions, then the latest
// didChangeConfiguration settings. Call with s.mu held.
func (s *Server) newEngine() *engine {
	e := &engine{srv: s, versions: patterns.DefaultVersions}
	var cfg workspace.Config
	if s.root != "" {
		c, err := workspace.FindConfig(s.root)
		if err != nil {
			e.warnings = append(e.warnings, err.Error())
		} else {
			cfg = c
		}
	}
	e.sel = patterns.Selection{Select: cfg.Select, Ignore: cfg.Ignore}
	e.unsafe = cfg.UnsafeFixes
	e.config = cfg.TargetGPU
	e.torchExplicit = cfg.TorchVersionSet()
	cs := parseSettings(s.initOpts).over(parseSettings(s.changeOpts))
	if cs.Select != nil {
		// The editor's selection replaces the file's, as --select does.
		e.sel = patterns.Selection{Select: *cs.Select}
	}
	if cs.Ignore != nil {
		e.sel.Ignore = append(append([]string(nil), e.sel.Ignore...), *cs.Ignore...)
	}
	if cs.UnsafeFixes != nil {
		e.unsafe = *cs.UnsafeFixes
	}
	if cs.TargetGPU != nil {
		e.explicit = *cs.TargetGPU
	}
	if err := e.sel.Validate(); err != nil {
		e.warnings = append(e.warnings, err.Error())
	}
	if s.opts.Versions != nil {
		root := cfg.Root
		if root == "" {
			root = s.root
		}
		if s.opts.NearestVersions != nil {
			e.versionsFor = s.opts.NearestVersions(cfg)
		}
		v, err := s.opts.Versions(cfg, root)
		if err != nil {
			e.warnings = append(e.warnings, err.Error())
		} else {
			e.versions = v
		}
	}
	for _, w := range e.warnings {
		s.logf("configuration: %s", w)
	}
	return e
}

// Env returns the rules' environment, reading the hardware profile on
// first use.
func (e *engine) Env() *patterns.Env {
	e.envOnce.Do(func() {
		gpu, _, _ := e.srv.hardware(e.explicit, e.config)
		e.env = &patterns.Env{GPU: gpu, Versions: e.versions, CPUCount: runtime.NumCPU(), VersionsFor: e.versionsFor, TorchExplicit: e.torchExplicit}
		if e.srv.project != nil {
			e.env.Project = e.srv.project
		}
	})
	return e.env
}

// analyze runs the selected rules over f.
func (e *engine) analyze(f *rewrite.File) []rewrite.Finding {
	return patterns.Run(f, e.sel, e.Env())
}

// wants reports whether a finding's fix belongs in "fix all".
func (e *engine) wants(fd rewrite.Finding) bool {
	return fd.Fix != nil && (fd.Fix.Applicability == rewrite.Safe || e.unsafe && fd.Fix.Applicability == rewrite.Unsafe)
}

// hardware returns the (cached) profile for a target pair.
func (s *Server) hardware(explicit, config string) (patterns.GPU, string, error) {
	s.mu.Lock()
	key := [2]string{explicit, config}
	r := s.hw[key]
	if r == nil {
		r = &hwResult{}
		s.hw[key] = r
	}
	s.mu.Unlock()
	r.once.Do(func() {
		if s.opts.Hardware == nil {
			r.text = "No hardware profile: this server was started without one; rules assume no GPU is known."
			return
		}
		r.gpu, r.text, r.err = s.opts.Hardware(explicit, config)
		if r.err != nil {
			s.logf("hardware profile: %v", r.err)
			if r.text == "" {
				r.text = "Hardware profile unavailable: " + r.err.Error()
			}
		}
	})
	return r.gpu, r.text, r.err
}

func (s *Server) didChangeConfiguration(raw json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.changeOpts = p.Settings
	s.eng = s.newEngine()
	eng := s.eng
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	notebooks := make([]*nbDoc, 0, len(s.notebooks))
	for _, nb := range s.notebooks {
		notebooks = append(notebooks, nb)
	}
	s.mu.Unlock()
	for _, nb := range notebooks {
		nb.reconfigure(eng)
		s.scheduleNotebook(nb)
	}
	s.showWarnings(context.Background(), eng)
	for _, d := range docs {
		d.reconfigure(eng)
		s.schedule(d)
	}
	return nil
}

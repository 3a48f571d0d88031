package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// commonFlags are the flags check and fix share.
type commonFlags struct {
	selectCodes   []string
	ignoreCodes   []string
	unsafeFixes   bool
	noUnsafeFixes bool
	outputFormat  string
	stdinFilename string
	targetGPU     string
	configPath    string
	noProgress    bool
	exitZero      bool
	forceExclude  bool
	text          textOptions
}

func (f *commonFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.selectCodes, "select", nil, "only these rule codes or prefixes (comma-separated), e.g. XGB,AMP001; an opt-in rule needs its full code (ALL,MEM005)")
	fl.StringSliceVar(&f.ignoreCodes, "ignore", nil, "skip these rule codes or prefixes")
	fl.BoolVar(&f.unsafeFixes, "unsafe-fixes", false, "also apply fixes that may change numerics, RNG streams or memory use")
	fl.BoolVar(&f.noUnsafeFixes, "no-unsafe-fixes", false, "override unsafe-fixes = true from the configuration")
	fl.StringVar(&f.outputFormat, "output-format", "full", "full (source lines, span underlined), concise (one line each), json, sarif or github")
	fl.StringVar(&f.stdinFilename, "stdin-filename", "", "the file name to report when reading source from stdin (path '-')")
	fl.StringVar(&f.targetGPU, "target-gpu", "", "assume this GPU when the machine has none (see `gpuopt hw --list`)")
	fl.StringVar(&f.configPath, "config", "", "read [tool.gpuopt] from this pyproject.toml instead of the nearest one")
	fl.BoolVar(&f.noProgress, "no-progress", false, "do not show progress on long runs")
	fl.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when findings remain (2 still means an error)")
	fl.BoolVar(&f.forceExclude, "force-exclude", false, "apply the configuration's exclude patterns to files named on the command line too (for pre-commit)")
	fl.BoolVar(&f.text.showFixes, "show-fixes", false, "show each fix's change (check) or list what was fixed (fix)")
}

// settings is everything a run needs, resolved from flags and config.
type settings struct {
	cfg       workspace.Config
	selection patterns.Selection
	unsafe    bool
	env       *patterns.Env
	text      textOptions
}

func (f *commonFlags) resolve(cmd *cobra.Command, paths []string) (*settings, error) {
	if len(paths) == 0 {
		// No path is the current directory, for the project index and
		// the versions as for the files walked (readInputs): `gpuopt
		// check` and `gpuopt check .` must agree (blind sample HH found
		// cross-module findings differing between the two).
		paths = []string{"."}
	}
	var cfg workspace.Config
	var err error
	if f.configPath != "" {
		var found bool
		if _, err := os.Stat(f.configPath); err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		cfg, found, err = workspace.LoadConfig(f.configPath)
		if err == nil && !found {
			err = fmt.Errorf("%s has no [tool.gpuopt] table", f.configPath)
		}
	} else {
		start := "."
		if len(paths) > 0 && paths[0] != "-" {
			start = paths[0]
		} else if f.stdinFilename != "" {
			start = filepath.Dir(f.stdinFilename)
		}
		cfg, err = workspace.FindConfig(start)
	}
	if err != nil {
		return nil, err
	}
	s := &settings{cfg: cfg, selection: patterns.Selection{Select: cfg.Select, Ignore: cfg.Ignore}, unsafe: cfg.UnsafeFixes}
	if cmd.Flags().Changed("select") {
		// A command-line selection replaces the configuration's, ignores included.
		s.selection = patterns.Selection{Select: f.selectCodes}
	}
	if cmd.Flags().Changed("ignore") {
		s.selection.Ignore = append(s.selection.Ignore, f.ignoreCodes...)
	}
	if f.unsafeFixes {
		s.unsafe = true
	}
	if f.noUnsafeFixes {
		s.unsafe = false
	}
	if err := s.selection.Validate(); err != nil {
		return nil, err
	}
	switch f.outputFormat {
	case "text": // the name of concise before full existed
		f.outputFormat = "concise"
	case "full", "concise", "json", "sarif", "github":
	default:
		return nil, fmt.Errorf("unknown --output-format %q: use full, concise, json, sarif or github", f.outputFormat)
	}
	if f.text.statistics && (f.outputFormat == "sarif" || f.outputFormat == "github") {
		return nil, fmt.Errorf("--statistics prints full, concise or json, not %s", f.outputFormat)
	}
	s.text = f.text
	env, err := buildEnv(cfg, f.targetGPU, paths)
	if err != nil {
		return nil, err
	}
	s.env = env
	return s, nil
}

// buildVersions reads library versions from the config, else from pins in
// requirements files next to the configuration or the first path
// (requirements.txt, pyproject.toml, setup.cfg, setup.py's install_requires).
func buildVersions(cfg workspace.Config, paths []string) (patterns.Versions, error) {
	dir := cfg.Root
	if dir == "" && len(paths) > 0 && paths[0] != "-" {
		dir = paths[0]
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			dir = filepath.Dir(dir)
		}
	}
	reqs := ""
	if dir != "" {
		reqs, _ = pinText(dir)
	}
	v := patterns.PinnedVersions(reqs)
	return v, applyTargetVersions(&v, cfg)
}

// torchRequirement matches a requirement line that names torch.
var torchRequirement = regexp.MustCompile(`(?mi)^\s*(-\s*)?(pytorch::)?(py)?torch\s*([=<>!~ ]|$)`)

// installCommand matches a pip install command written as a pin line
// (`pip3 install torch==1.1.0 torchvision==0.3.0`, blind sample S38AC's
// fall-detection requirements.txt).
var installCommand = regexp.MustCompile(`(?m)^\s*(?:sudo\s+|pipenv\s+run\s+|poetry\s+run\s+|uv\s+)?(?:python3?\s+-m\s+)?pip3?\s+install\s+(.*)$`)

// condaURL matches a conda explicit spec line's package and version
// (`https://conda.anaconda.org/pytorch/linux-64/pytorch-1.2.0-py3.6_...tar.bz2`,
// blind sample S38AC's gepc environment.txt).
var condaURL = regexp.MustCompile(`(?m)^https?://\S*/(pytorch|torchvision|xgboost)-([0-9][0-9.]*)-\S*\.(?:tar\.bz2|conda)(?:#[0-9a-f]+)?\s*$`)

// pinLines rewrites pins written as install commands or conda URLs as
// requirement lines, one package a line; other lines stay as they are.
func pinLines(text string) string {
	text = installCommand.ReplaceAllStringFunc(text, func(line string) string {
		m := installCommand.FindStringSubmatch(line)
		args, _, _ := strings.Cut(m[1], "#")
		var out []string
		for _, f := range strings.Fields(args) {
			if f == "&&" || f == ";" || f == "\\" {
				break
			}
			if !strings.HasPrefix(f, "-") {
				out = append(out, f)
			}
		}
		return strings.Join(out, "\n")
	})
	return condaURL.ReplaceAllString(text, "${1}==${2}")
}

// frozenTorch matches pip freeze's line for torch (`torch==1.4.0+cu100`).
var frozenTorch = regexp.MustCompile(`(?m)^(py)?torch==[0-9]`)

// pinFiles are the files whose pins say which library versions a project
// runs, in the order their text is read.
// Lock files come last: what they resolved is what the project runs.
var pinFiles = []string{"requirements.txt", "requirements-gpu.txt", "pyproject.toml", "setup.cfg", "setup.py", "environment.yml", "environment.yaml", "Dockerfile", "uv.lock", "poetry.lock"}

// pinText returns the pin files of dir as one requirements-style text
// (setup.py's quoted install_requires one per line), and whether dir has
// any of them.
func pinText(dir string) (string, bool) {
	var reqs strings.Builder
	found := false
	names := slices.Clone(pinFiles)
	// Named variants: requirements-dev.txt, pytorch_environment.yml,
	// environment-gpu.yaml (a project with one conda file per stage), and
	// conda files named env.yml or conda.yaml (blind sample MM: a torch
	// 1.8.1 pin in env.yml, missed, let OPT001 write fused=True).
	// A requirements folder (requirements/requirements.txt, requirements/
	// gpu.txt) holds the pins of projects that split them (blind sample
	// S18R's CORL, whose torch 1.11 pin there was missed and fused=True
	// written).
	// A Dockerfile of a docker/ folder, or named for its image
	// (Dockerfile.gpu): blind sample S35Q's landmark retrieval, whose
	// docker/Dockerfile starts FROM pytorch/pytorch:1.3-cuda10.1.
	// The requirements and conda files of a folder for them (blind samples
	// S37O's VI-SVS, torch 1.6.0 in configs/requirements.txt, and S37AB's
	// HyperFLAW, torch 1.10.1 in extras/environment.yml), and a Binder
	// environment (blind sample S38AS's glacier U-Net, torch 1.8.0 in
	// binder/environment.yml).
	globs := []string{"requirements*.txt", "*environment*.yml", "*environment*.yaml", "*env.yml", "*env.yaml", "conda*.yml", "conda*.yaml", filepath.Join("requirements", "*.txt"), filepath.Join("requirements", "*.yml"), filepath.Join("requirements", "*.yaml"),
		"Dockerfile*", filepath.Join("docker", "Dockerfile*")}
	for _, folder := range []string{"configs", "config", "extras", "binder", ".binder"} {
		for _, file := range []string{"requirements*.txt", "*environment*.yml", "*environment*.yaml", "*env.yml", "*env.yaml"} {
			globs = append(globs, filepath.Join(folder, file))
		}
	}
	for _, pattern := range globs {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		sort.Strings(matches)
		for _, m := range matches {
			if name, err := filepath.Rel(dir, m); err == nil && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	// Requirements files spelled otherwise: `Requirements` without an
	// extension, `Requirements.txt`, `requirement.txt` (blind sample
	// S36F's CDGNet pins torch 1.9 in a file named Requirements).
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			lower := strings.ToLower(e.Name())
			if e.IsDir() || slices.Contains(names, e.Name()) {
				continue
			}
			if lower == "requirements" || lower == "requirement" || strings.HasPrefix(lower, "requirement") && strings.HasSuffix(lower, ".txt") {
				names = append(names, e.Name())
			}
		}
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		found = true
		text := pinLines(decodePinFile(b))
		switch name {
		case "setup.py":
			text = patterns.QuotedRequirements(text)
		case "pyproject.toml":
			text += "\n" + patterns.QuotedPins(text)
		case "uv.lock", "poetry.lock":
			text = patterns.LockedVersions(text)
		}
		if strings.HasPrefix(filepath.Base(name), "Dockerfile") {
			pins := patterns.DockerfilePins(text)
			if !torchRequirement.MatchString(reqs.String() + pins) {
				pins += patterns.DockerfileImagePin(text) // the image is the only torch named
			}
			text = pins
		}
		reqs.WriteString(text)
		reqs.WriteByte('\n')
	}
	if !torchRequirement.MatchString(reqs.String()) {
		// No file pins torch: a README's install commands may (`conda
		// create ... pytorch==1.0.0`), and so may a torchvision pin. The
		// README counts as a pin file only where it pins something, so
		// that a sub-package's README does not stop the search upwards.
		for _, name := range []string{"README.md", "README.rst", "README.txt", "README", "INSTALL.md"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				if pins := patterns.ReadmePins(string(b)); pins != "" {
					reqs.WriteString(pins)
					found = true
				}
				break
			}
		}
	}
	if !torchRequirement.MatchString(reqs.String()) {
		// A pip freeze saved under another name (`env.list.txt`, blind
		// sample S38AD's NEMG-IQA pins torch==1.4.0+cu100 there): a text
		// file of the folder with a `torch==` line.
		matches, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		sort.Strings(matches)
		for _, m := range matches {
			if st, err := os.Stat(m); err != nil || st.Size() > 256<<10 || slices.Contains(names, filepath.Base(m)) {
				continue
			}
			b, err := os.ReadFile(m)
			if err != nil {
				continue
			}
			if text := pinLines(decodePinFile(b)); frozenTorch.MatchString(text) {
				reqs.WriteString(text)
				reqs.WriteByte('\n')
				found = true
				break
			}
		}
	}
	if !torchRequirement.MatchString(reqs.String()) {
		// An install script's pip lines (`setup.sh`: `pip install \`,
		// then `torch==1.7.1+cu110 \` on the next line: blind sample
		// S39O's lung-nodule classifier, given bf16 autocast over its
		// torch 1.7.1).
		matches, _ := filepath.Glob(filepath.Join(dir, "*.sh"))
		sort.Strings(matches)
		for _, m := range matches {
			if st, err := os.Stat(m); err != nil || st.Size() > 64<<10 {
				continue
			}
			b, err := os.ReadFile(m)
			if err != nil {
				continue
			}
			joined := strings.ReplaceAll(strings.ReplaceAll(string(b), "\\\r\n", " "), "\\\n", " ")
			if text := pinLines(joined); frozenTorch.MatchString(text) {
				reqs.WriteString(text)
				reqs.WriteByte('\n')
				found = true
				break
			}
		}
	}
	if !torchRequirement.MatchString(reqs.String()) {
		reqs.WriteString(patterns.TorchFromTorchvision(reqs.String()))
	}
	if patterns.PinnedVersions(reqs.String()).Torch == patterns.DefaultVersions.Torch {
		// No torch version (perhaps `- pytorch` unversioned): a conda
		// environment's python or cudatoolkit bounds it.
		reqs.WriteString(patterns.TorchFromToolchain(reqs.String()))
	}
	return reqs.String(), found
}

// decodePinFile returns a pin file's text: UTF-8, or UTF-16 with its byte
// order mark (what PowerShell's `pip freeze > requirements.txt` writes:
// blind sample S37O's fyp pinned torch 1.8.0 so, unread).
func decodePinFile(b []byte) string {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		order = binary.LittleEndian
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		order = binary.BigEndian
	default:
		return string(b)
	}
	b = b[2:]
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = order.Uint16(b[2*i:])
	}
	return string(utf16.Decode(units))
}

// applyTargetVersions lets [tool.gpuopt] target-versions override pins.
func applyTargetVersions(v *patterns.Versions, cfg workspace.Config) error {
	for lib, ver := range cfg.TargetVersions {
		pv, ok := patterns.ParseVersion(ver)
		if !ok {
			return fmt.Errorf("[tool.gpuopt] target-versions: %s = %q is not a version", lib, ver)
		}
		switch strings.ToLower(lib) {
		case "torch", "pytorch":
			v.Torch = pv
		case "xgboost":
			v.XGBoost = pv
		default:
			return fmt.Errorf("[tool.gpuopt] target-versions: unknown library %q (torch, xgboost)", lib)
		}
	}
	return nil
}

// nearestPins finds, for each file, the pins of the nearest directory at
// or above it that has pin files, up to the repository's root (the
// directory holding .git) at most maxPinLevels up: a file of a
// sub-project, or of a repository checked from its parent directory, runs
// the versions its own requirements name. Directories are read once.
type nearestPins struct {
	cfg   workspace.Config
	mu    sync.Mutex
	byDir map[string]*dirPins
}

type dirPins struct {
	v     patterns.Versions
	found bool
}

const maxPinLevels = 8

func newNearestPins(cfg workspace.Config) *nearestPins {
	return &nearestPins{cfg: cfg, byDir: map[string]*dirPins{}}
}

// For implements patterns.Env.VersionsFor.
func (n *nearestPins) For(path string) (patterns.Versions, bool) {
	if path == "" || path == "-" {
		return patterns.Versions{}, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return patterns.Versions{}, false
	}
	d := n.dir(filepath.Dir(abs), 0)
	return d.v, d.found
}

func (n *nearestPins) dir(dir string, level int) *dirPins {
	n.mu.Lock()
	d, ok := n.byDir[dir]
	n.mu.Unlock()
	if ok {
		return d
	}
	d = &dirPins{}
	if text, found := pinText(dir); found {
		if !torchRequirement.MatchString(text) {
			// A sub-package's setup.py that pins no torch (AlphaPose's,
			// vendored under source/ in blind sample S38AC's fall
			// detector): the torch the repository pins above it holds.
			text += "\n" + torchPinsAbove(dir, level)
		}
		d.v = patterns.PinnedVersions(text)
		d.found = applyTargetVersions(&d.v, n.cfg) == nil
	} else if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil && level < maxPinLevels {
		if parent := filepath.Dir(dir); parent != dir {
			d = n.dir(parent, level+1)
		}
	}
	n.mu.Lock()
	n.byDir[dir] = d
	n.mu.Unlock()
	return d
}

// torchPinsAbove returns the torch requirement lines of the nearest
// folder above dir, up to the repository's root, whose pin files name
// torch; "" when none does.
func torchPinsAbove(dir string, level int) string {
	for ; level < maxPinLevels; level++ {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
		if text, found := pinText(dir); found && torchRequirement.MatchString(text) {
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				if torchRequirement.MatchString(l) {
					lines = append(lines, l)
				}
			}
			return strings.Join(lines, "\n")
		}
	}
	return ""
}

// input is one file to analyse: from disk or from stdin.
type input struct {
	path  string
	file  *workspace.File // nil for stdin
	bytes []byte
	err   error // read error: skip or I/O
	// rest is the unread part of stdin past the size limit, which fix -
	// copies through after bytes.
	rest io.Reader
}

func readInputs(paths []string, s *settings, stdinName string, stdin io.Reader) ([]input, error) {
	if len(paths) == 1 && paths[0] == "-" {
		if stdinClosed(stdin) {
			return nil, errors.New("stdin is closed: nothing to read for '-' (pipe source into gpuopt, or name files)")
		}
		name := stdinName
		if name == "" {
			name = "-"
		}
		// The same size limit as files; what is past it is not read, but
		// fix - still echoes it (input.rest).
		b, err := io.ReadAll(io.LimitReader(stdin, workspace.MaxFileSize+1))
		if err != nil {
			return nil, err
		}
		in := input{path: name, bytes: b}
		if len(b) > workspace.MaxFileSize {
			in.rest = stdin
			in.err = &workspace.SkipError{Path: name, Reason: fmt.Sprintf("input too large (over %d MB): skipped", workspace.MaxFileSize>>20)}
		} else if err := workspace.CheckText(b); err != nil {
			in.err = &workspace.SkipError{Path: name, Reason: err.Error()}
		}
		return []input{in}, nil
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := workspace.Expand(paths, s.cfg)
	ins := make([]input, 0, len(files))
	for _, p := range files {
		ins = append(ins, input{path: p})
	}
	return ins, err
}

func (in *input) load() {
	if in.bytes != nil || in.err != nil {
		return
	}
	in.file, in.err = workspace.Read(in.path)
	if in.err == nil {
		in.bytes = in.file.Bytes
	}
}

// analyzer returns the function the fix loop calls on each pass.
func (s *settings) analyzer() rewrite.Analyzer {
	return func(f *rewrite.File) []rewrite.Finding { return patterns.Run(f, s.selection, s.env) }
}

// wants reports whether a finding's fix may be applied in batch.
func (s *settings) wants(fd rewrite.Finding) bool {
	return fd.Fix != nil && (fd.Fix.Applicability == rewrite.Safe || s.unsafe && fd.Fix.Applicability == rewrite.Unsafe)
}

package patterns

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Version is a library's major.minor version; the zero value means unknown.
type Version struct{ Major, Minor int }

// ParseVersion reads "2", "2.1" or "2.1.3+cu121"; ok is false for anything
// else.
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "v"))
	parts := strings.SplitN(s, ".", 3)
	major, err := strconv.Atoi(parts[0])
	if err != nil {
		return Version{}, false
	}
	v := Version{Major: major}
	if len(parts) > 1 {
		digits := strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
		if v.Minor, err = strconv.Atoi(digits); err != nil {
			return Version{}, false
		}
	}
	return v, true
}

// AtLeast reports v >= major.minor.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Versions are the library versions rules are gated on.
type Versions struct {
	Torch   Version
	XGBoost Version
	// TorchFloor is the oldest torch the project declares it supports
	// (`torch>=1.12`), zero when it declares none. Torch is what it is
	// assumed to run; a rewrite to an API newer than the floor breaks the
	// versions the project still supports.
	TorchFloor Version
	// Lightning is PyTorch Lightning's (`pytorch-lightning`, `lightning`).
	Lightning Version
}

// Below reports a declared floor older than major.minor: the project
// supports a torch without what arrived there.
func (v Version) Below(major, minor int) bool {
	return v != (Version{}) && !v.AtLeast(major, minor)
}

// DefaultVersions are today's releases, assumed when nothing pins a version.
var DefaultVersions = Versions{Torch: Version{2, 4}, XGBoost: Version{2, 0}, Lightning: Version{2, 4}}

// PinnedVersions reads `torch==X` / `xgboost==X` (also ~=, <=, <) pins from
// requirements-style text, and conda's `- pytorch=X` / `- xgboost=X=build`
// from an environment file, and returns defaults for what is not pinned.
// An upper bound `<X` reads as the version below it.
func PinnedVersions(requirements string) Versions {
	v := DefaultVersions
	for _, line := range strings.Split(requirements, "\n") {
		line = strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
		line = strings.TrimSpace(strings.TrimPrefix(line, "- ")) // a YAML list item
		line = strings.Trim(line, `"',`)
		if i := strings.Index(line, "::"); i >= 0 {
			line = line[i+2:] // a conda channel: pytorch::pytorch=1.5.0=py3.7_cuda10.2_0
		}
		if pinned := directWheelPin(line); pinned != "" {
			// `torch @ https://download.pytorch.org/whl/cu113/torch-1.11.0%2Bcu113-...whl`:
			// a direct reference names its version in the wheel's file
			// name (blind sample S18H's NBME solution).
			line = pinned
		}
		for _, lib := range []struct {
			name string
			dst  *Version
		}{{"torch", &v.Torch}, {"pytorch", &v.Torch}, {"xgboost", &v.XGBoost}, {"py-xgboost", &v.XGBoost},
			{"pytorch-lightning", &v.Lightning}, {"pytorch_lightning", &v.Lightning}, {"lightning", &v.Lightning}} {
			rest, ok := strings.CutPrefix(strings.ToLower(line), lib.name)
			if !ok {
				continue
			}
			spaced := rest != "" && (rest[0] == ' ' || rest[0] == '\t')
			rest = strings.TrimSpace(rest)
			if f := strings.Fields(rest); spaced && len(f) > 0 && f[0][0] >= '0' && f[0][0] <= '9' {
				// `torch 0.4.1`: a listing of installed versions (pip
				// freeze's columns, a README-style requirements file).
				if pv, ok := ParseVersion(f[0]); ok {
					*lib.dst = pv
				}
				continue
			}
			// poetry: torch = ">=1.10.1,<1.13" (or { version = "..." }):
			// the quoted spec's clauses, read as requirement pins.
			if spec, ok := strings.CutPrefix(rest, "="); ok && !strings.HasPrefix(spec, "=") {
				spec = strings.TrimSpace(spec)
				if i := strings.Index(spec, "version"); strings.HasPrefix(spec, "{") && i >= 0 {
					spec = strings.TrimSpace(strings.TrimLeft(spec[i+len("version"):], " ="))
				}
				if q := strings.IndexAny(spec, `"'`); q == 0 {
					e := strings.IndexByte(spec[1:], spec[0])
					if e < 0 {
						e = len(spec) - 1 // the line's closing quote was trimmed above
					}
					{
						inner := spec[1 : 1+e]
						if inner != "" && !strings.HasPrefix(inner, "*") {
							for _, clause := range strings.Split(inner, ",") {
								clause = strings.TrimSpace(clause)
								switch {
								case strings.HasPrefix(clause, "^"), strings.HasPrefix(clause, "~") && !strings.HasPrefix(clause, "~="):
									clause = "==" + clause[1:] // caret and tilde: the lower bound
								case clause != "" && clause[0] >= '0' && clause[0] <= '9':
									clause = "==" + clause
								}
								if cv := PinnedVersions(lib.name + clause); cv != DefaultVersions {
									switch {
									case cv.TorchFloor != (Version{}):
										v.TorchFloor = cv.TorchFloor
									case lib.dst == &v.Torch:
										v.Torch = cv.Torch
									case lib.dst == &v.Lightning:
										v.Lightning = cv.Lightning
									default:
										v.XGBoost = cv.XGBoost
									}
								}
							}
							break
						}
					}
				}
			}
			// A pip spec's clauses: `torch>=1.12,<2.0` runs below 2.0 and
			// supports 1.12 on.
			for _, clause := range strings.Split(rest, ",") {
				clause = strings.TrimSpace(clause)
				if floor, ok := strings.CutPrefix(clause, ">="); ok {
					if pv, ok := ParseVersion(strings.Trim(floor, ` "'`)); ok && lib.dst == &v.Torch {
						v.TorchFloor = pv
					}
					continue
				}
				for _, op := range []string{"==", "~=", "<=", "<", "="} {
					if pin, ok := strings.CutPrefix(clause, op); ok {
						pin = strings.SplitN(pin, "=", 2)[0] // conda: =1.5.1=py38_0
						if pv, ok := ParseVersion(strings.Trim(pin, ` "'^~`)); ok {
							if op == "<" {
								pv = below(pv)
							}
							*lib.dst = pv
						}
						break
					}
				}
			}
		}
	}
	return v
}

// QuotedRequirements returns the string literals of a setup.py, one per
// line, for PinnedVersions: install_requires=["xgboost==1.5.2", "torch"]
// spells its pins as strings, often several on one line.
func QuotedRequirements(setupPy string) string {
	var out strings.Builder
	for _, m := range quotedString.FindAllStringSubmatch(setupPy, -1) {
		out.WriteString(m[1] + m[2])
		out.WriteByte('\n')
	}
	return out.String()
}

var quotedString = regexp.MustCompile(`"([^"\n]*)"|'([^'\n]*)'`)

// QuotedPins returns the quoted requirement specs of a pyproject.toml, one
// per line, for PinnedVersions: PEP 621 dependency lists and optional
// extras spell them inside arrays, several on a line
// (`cuda = ["torch==1.10.*"]`: blind sample XX, whose fused=True and
// set_float32_matmul_precision broke on that pin). Only strings that are
// a library name followed by a version operator are kept, not prose that
// mentions a library.
func QuotedPins(pyproject string) string {
	var out strings.Builder
	for _, m := range quotedString.FindAllStringSubmatch(pyproject, -1) {
		if spec := m[1] + m[2]; quotedPin.MatchString(spec) {
			out.WriteString(spec)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

var quotedPin = regexp.MustCompile(`(?i)^\s*(torch|pytorch|xgboost)\s*(\[[^\]]*\])?\s*(==|~=|<=|<|===)\s*[0-9]`)

// DockerfilePins returns the torch and xgboost pins a Dockerfile's
// install commands spell, one per line, for PinnedVersions: `pip install
// xgboost==1.5.0` and wheel URLs such as `.../torch-1.1.0-cp36-...whl`
// (blind sample YY: projects whose README trains in their container,
// pinned there alone; fix wrote fused=True for torch 1.1.0).
func DockerfilePins(dockerfile string) string {
	var out strings.Builder
	for _, tok := range strings.FieldsFunc(dockerfile, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\\' || r == '"' || r == '\'' || r == ';' || r == '&' || r == '|'
	}) {
		if quotedPin.MatchString(tok) {
			out.WriteString(tok + "\n")
			continue
		}
		if m := wheelPin.FindStringSubmatch(tok); m != nil {
			out.WriteString(m[1] + "==" + m[2] + "\n")
		}

	}
	return out.String()
}

// readmePin matches an exact pin of torch, pytorch or torchvision:
// `torch==1.8.0`, conda's `pytorch=1.7`.
var readmePin = regexp.MustCompile(`(?i)(?:^|[\s"'` + "`" + `(])(pytorch|torch|torchvision)\s*==?\s*([0-9]+\.[0-9]+(?:\.[0-9]+)?)\b`)

// readmePinLine matches a README line that is one pin and nothing else
// (a requirements list in the README: `torch==1.8.0`, `- PyTorch ==
// 1.11.0`, `* torch 1.3.1`, or a `pip list` pasted in a code block:
// `torch 1.7.0`). The version a README lists is the one the code was run
// on: blind sample S37D's DimeNet-dgl got fused=True, torch.compile and
// set_float32_matmul_precision advice under a listed torch 1.7.0 (none
// exists there). The recall labels lost nothing to this (182/202 both
// ways, session 37).
// (A local build tag and a parenthesised remark may follow: "- `torch ==
// 1.11+cu11.5` (Not required, but recommended.)", blind sample S38Y's
// pavement distress classifier.)
var readmePinLine = regexp.MustCompile(`(?i)^(?:[-*+]\s+)?` + "`?" + `(pytorch|torch|torchvision)(?:\s*==?\s*|\s+v?)([0-9]+\.[0-9]+(?:\.[0-9]+)?)(?:\+[a-z0-9.]+)?` + "`?" + `\s*(?:\([^()]*\))?\s*$`)

// installCommands are the commands whose arguments are pins.
var installCommands = []string{"pip install", "pip3 install", "conda install", "conda create", "mamba install", "mamba create", "conda env create"}

// ReadmePins returns the exact torch and torchvision pins a README names
// in its install commands (`conda create ... pytorch==1.0.0 ...`, `pip
// install torch==1.8.0`) or as lines of a requirements list, one
// `name==X` per line, for PinnedVersions and TorchFromTorchvision: a
// project without a requirements file that pins torch there runs that
// version (blind samples S35A's Zero-DCE, S35B's MR-to-CT and S35F's
// CTRNext, whose fused=True and torch.compile advice needed a newer
// torch). Pins in prose or examples ("set target-versions =
// {torch = ...}"), ranges, and READMEs naming two torch versions say
// nothing.
func ReadmePins(readme string) string {
	var out strings.Builder
	torches := map[string]bool{}
	add := func(name, version string) {
		name = strings.ToLower(name)
		if name == "pytorch" {
			name = "torch"
		}
		if name == "torch" {
			if pv, ok := ParseVersion(version); ok {
				torches[pv.String()] = true
			}
		}
		out.WriteString(name + "==" + version + "\n")
	}
	for _, line := range strings.Split(readme, "\n") {
		line = strings.TrimSpace(line)
		if m := readmePinLine.FindStringSubmatch(line); m != nil {
			add(m[1], m[2])
			continue
		}
		lower := strings.ToLower(line)
		if !slices.ContainsFunc(installCommands, func(c string) bool { return strings.Contains(lower, c) }) {
			continue
		}
		for _, m := range readmePin.FindAllStringSubmatch(line, -1) {
			add(m[1], m[2])
		}
	}
	if len(torches) > 1 {
		return "" // two versions named: which one runs is not said
	}
	return out.String()
}

// torchvisionPin matches a requirement line that pins torchvision.
var torchvisionPin = regexp.MustCompile(`(?mi)^\s*(?:-\s*)?(?:pytorch::)?torchvision\s*(?:==|=|~=|<=)\s*0\.([0-9]+)`)

// TorchFromTorchvision returns `torch==X` for the torch release a pinned
// torchvision was built for (0.5 for 1.4 up to 0.14 for 1.13, 0.15 for
// 2.0 on), "" when requirements pin no torchvision: a project that pins
// only torchvision==0.5.0 runs torch 1.4 (blind sample S35C's
// anti-spoofer got bf16 autocast advice). The caller uses it only where
// nothing pins torch itself.
func TorchFromTorchvision(requirements string) string {
	m := torchvisionPin.FindStringSubmatch(requirements)
	if m == nil {
		return ""
	}
	minor, err := strconv.Atoi(m[1])
	switch {
	case err != nil || minor < 2:
		return ""
	case minor <= 4:
		return fmt.Sprintf("torch==1.%d\n", minor-2) // 0.2 with 1.0, 0.3 with 1.1, 0.4 with 1.2-1.3
	case minor <= 14:
		return fmt.Sprintf("torch==1.%d\n", minor-1)
	}
	return fmt.Sprintf("torch==2.%d\n", minor-15)
}

// condaToolchain matches a conda environment's python or cudatoolkit pin
// (`- python=3.6`, `- cudatoolkit=9.2`).
var condaToolchain = regexp.MustCompile(`(?mi)^\s*-\s*(python|cudatoolkit)\s*=+\s*([0-9]+)\.([0-9]+)`)

// newestTorchFor are the last torch releases built for a Python or a
// CUDA toolkit: torch 1.11 dropped Python 3.6, 2.0 dropped 3.7; the
// conda builds for cudatoolkit 9.2 end at 1.7.1, 10.0 at 1.2, 10.1 at
// 1.8.1, 10.2 at 1.12.1.
var newestTorchFor = map[string]string{
	"python 3.5": "1.5.1", "python 3.6": "1.10.2", "python 3.7": "1.13.1",
	"cudatoolkit 9.0": "1.1.0", "cudatoolkit 9.2": "1.7.1", "cudatoolkit 10.0": "1.2.0", "cudatoolkit 10.1": "1.8.1", "cudatoolkit 10.2": "1.12.1",
}

// TorchFromToolchain returns `torch<=X` for the newest torch a conda
// environment's python or cudatoolkit pin allows (the older of the two),
// "" when it pins neither to a version that bounds torch: an environment
// that lists `- pytorch` unversioned beside `- python=3.6` and
// `- cudatoolkit=9.2` runs torch 1.7 at the newest (blind sample S36G's
// SAC-AE got fused=True, which torch 1.7 does not have). The caller uses
// it only where nothing pins a torch version.
func TorchFromToolchain(requirements string) string {
	newest := ""
	var bound Version
	for _, m := range condaToolchain.FindAllStringSubmatch(requirements, -1) {
		v, ok := newestTorchFor[strings.ToLower(m[1])+" "+m[2]+"."+m[3]]
		if !ok {
			continue
		}
		if pv, ok := ParseVersion(v); ok && (newest == "" || !pv.AtLeast(bound.Major, bound.Minor)) {
			newest, bound = v, pv
		}
	}
	if newest == "" {
		return ""
	}
	return "torch<=" + newest + "\n"
}

// directWheelPin returns `torch==X` for a requirement line that refers to
// a torch or xgboost wheel by URL or path (wheelPin), "" otherwise.
func directWheelPin(line string) string {
	if !strings.Contains(line, ".whl") {
		return ""
	}
	for _, tok := range strings.Fields(line) {
		if m := wheelPin.FindStringSubmatch(tok); m != nil {
			return m[1] + "==" + m[2]
		}
	}
	return ""
}

// DockerfileImagePin returns a `torch==X.Y` line for the official
// PyTorch image a Dockerfile builds FROM (`FROM
// pytorch/pytorch:1.5.1-cuda10.1-cudnn7-devel`), "" for any other image.
// It is the project's torch only where no requirement names torch: DETR's
// and a voice assistant's images are one way to run code whose
// requirements ask for a newer torch.
func DockerfileImagePin(dockerfile string) string {
	for _, line := range strings.Split(dockerfile, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.EqualFold(f[0], "FROM") {
			if m := pytorchImage.FindStringSubmatch(f[1]); m != nil {
				return "torch==" + m[1] + "\n"
			}
			if m := ngcImage.FindStringSubmatch(f[1]); m != nil {
				if v := ngcTorch(m[1], m[2]); v != "" {
					return "torch==" + v + "\n"
				}
			}
		}
	}
	return ""
}

// pytorchImage is the official PyTorch image a Dockerfile builds FROM,
// whose tag is the torch version (blind sample S17D's Mario PPO on
// pytorch/pytorch:1.5.1-cuda10.1-cudnn7-devel, where fused=True raised).
var pytorchImage = regexp.MustCompile(`^pytorch/pytorch:([0-9]+\.[0-9]+(?:\.[0-9]+)?)`)

// ngcImage is NVIDIA's PyTorch container (nvcr.io/nvidia/pytorch:22.03-py3),
// whose tag is a release month, not a torch version (blind sample S38AK's
// flood detector, on 22.03: torch 1.12.0a0, where fused Adam and
// torch.compile do not exist).
var ngcImage = regexp.MustCompile(`^nvcr\.io/nvidia/pytorch:([0-9]{2})\.([0-9]{2})`)

// ngcReleases are the torch each NGC PyTorch container shipped from the
// month given on, by NVIDIA's release notes, where most ship a
// pre-release (1.12.0a0 in 22.03): its features are counted as the
// version before, and where a month is uncertain the older one is taken
// (gpuopt then stays silent on advice that needs the newer).
var ngcReleases = []struct{ from, torch string }{
	{"19.10", "1.2"}, {"20.01", "1.3"}, {"20.06", "1.5"}, {"20.08", "1.6"}, {"20.12", "1.7"},
	{"21.03", "1.8"}, {"21.09", "1.9"}, {"21.12", "1.10"}, {"22.03", "1.11"}, {"22.08", "1.12"},
	{"23.01", "1.13"}, {"23.05", "2.0"}, {"23.11", "2.1"},
	{"24.02", "2.2"}, {"24.07", "2.3"}, {"24.10", "2.4"}, {"25.01", "2.5"},
}

// ngcTorch returns the torch version of the NGC container of year yy and
// month mm, "" before the first one listed.
func ngcTorch(yy, mm string) string {
	tag := yy + "." + mm
	v := ""
	for _, r := range ngcReleases {
		if tag >= r.from {
			v = r.torch
		}
	}
	return v
}

var wheelPin = regexp.MustCompile(`(?:^|/)(torch|xgboost)-([0-9]+\.[0-9]+(?:\.[0-9]+)?)[^/]*\.whl$`)

// LockedVersions returns the torch and xgboost versions a lock file
// resolved, as `torch==X` lines for PinnedVersions: uv.lock's and
// poetry.lock's `name = "torch"` followed by `version = "1.10.2"`.
func LockedVersions(lock string) string {
	var out strings.Builder
	lib := ""
	for _, line := range strings.Split(lock, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			lib = "" // a new table: [[package]], [package.dependencies]
			continue
		}
		if v, ok := strings.CutPrefix(line, "name = "); ok {
			switch name := strings.Trim(v, `"'`); name {
			case "torch", "xgboost":
				lib = name
			default:
				lib = ""
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "version = "); ok && lib != "" {
			out.WriteString(lib + "==" + strings.Trim(v, `"'`) + "\n")
			lib = ""
		}
	}
	return out.String()
}

func below(v Version) Version {
	if v.Minor > 0 {
		return Version{v.Major, v.Minor - 1}
	}
	return Version{v.Major - 1, 99}
}

// torchMajorAssert matches a script's own check of torch's major version:
// `assert torch.__version__.split('.')[0] == '1'` (also with int(...) and
// a number) or `assert torch.__version__.startswith('1.')`.
var torchMajorAssert = regexp.MustCompile(`torch\.__version__(?:\.split\(\s*['"]\.['"]\s*\)\[0\]\)?\s*==\s*['"]?|\.startswith\(\s*['"])(\d+)`)

// assertedTorchMajor returns the torch major version a module-level
// assert of the file requires: such a script fails at import on any other,
// so the features of later releases (fused optimizers, torch.compile,
// set_float32_matmul_precision on 1.x before 1.12) are not advice for it.
func assertedTorchMajor(f *rewrite.File) (int, bool) {
	if !bytes.Contains(f.Src.Bytes, []byte("__version__")) {
		return 0, false
	}
	for _, st := range f.Root.NamedChildren() {
		if st.Type != "assert_statement" {
			continue
		}
		if m := torchMajorAssert.FindStringSubmatch(st.Text()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// preTorch04 reports a file written for PyTorch 0.3 or older, whatever
// its pins say: `Variable(x, volatile=True)` (volatile was removed in
// 0.4, where it does nothing) or `loss.data[0]` (a 0-dim tensor cannot be
// indexed since 0.5). Such code has to be ported before any of the GPU
// advice applies, and fixes written for current PyTorch (`device=` in a
// factory, persistent_workers) raise TypeError on 0.3 (blind sample RR).
func preTorch04(f *rewrite.File) bool {
	if !bytes.Contains(f.Src.Bytes, []byte("volatile")) && !bytes.Contains(f.Src.Bytes, []byte(".data[0]")) {
		return false
	}
	if !callsTorch04API(f.Src.Bytes) {
		for _, kw := range f.OfType("keyword_argument") {
			if kw.ChildByField("name").Text() == "volatile" && kw.ChildByField("value").Text() == "True" {
				return true
			}
		}
	}
	for _, sub := range f.OfType("subscript") {
		v, idx := sub.ChildByField("value"), sub.ChildByField("subscript")
		if v == nil || idx == nil || v.Type != "attribute" || idx.Text() != "0" || v.ChildByField("attribute").Text() != "data" {
			continue
		}
		if strings.Contains(strings.ToLower(v.ChildByField("object").Text()), "loss") {
			return true
		}
	}
	return false
}

// torch04API are calls PyTorch 0.4 introduced (`torch.no_grad()`,
// `torch.device(...)`, a tensor's `.item()`): a file that makes them runs
// on 0.4 or later, where a `volatile=True` left inside `with
// torch.no_grad():` does nothing (blind sample S29K's 2s-AGCN, whose
// whole training script went silent for one such evaluation loop).
var torch04API = [][]byte{[]byte("torch.no_grad("), []byte("torch.device("), []byte(".item()")}

// callsTorch04API reports source that spells one of torch04API.
func callsTorch04API(src []byte) bool {
	for _, w := range torch04API {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// torchLossIndex matches `loss.data[0]`, which raises on PyTorch 0.5 and
// later whatever else the module calls.
var torchLossIndex = regexp.MustCompile(`\b\w*loss\w*\.data\[0\]`)

// torch03Idiom matches preTorch04's idioms in the text of a module that
// is not parsed (an importer, read as source only).
var torch03Idiom = regexp.MustCompile(`volatile\s*=\s*True|\b\w*loss\w*\.data\[0\]`)

// writtenForTorch03 reports a file of a project written for PyTorch 0.3
// (preTorch04): the file itself, a project module it imports (main.py
// beside the train.py that holds the idioms), or one that imports it (the
// data module of that train.py, whose DataLoader would otherwise get
// persistent_workers: blind sample TT).
func writtenForTorch03(m *rewrite.Model) bool {
	if preTorch04(m.File) {
		return true
	}
	if m.ImportsProjectModule(func(mod *rewrite.ProjectDef) bool {
		fm := m.ModuleOf(mod)
		return fm != nil && fm != m && preTorch04(fm.File)
	}) {
		return true
	}
	for _, src := range m.ImporterSources() {
		if torch03Idiom.Match(src) && (!callsTorch04API(src) || torchLossIndex.Match(src)) {
			return true
		}
	}
	return false
}

// python2Modules are standard modules Python 3 renamed or removed.
var python2Modules = map[string]bool{"cPickle": true, "urllib2": true, "ConfigParser": true, "Queue": true,
	"StringIO": true, "cStringIO": true, "__builtin__": true, "commands": true, "HTMLParser": true}

// python2Only reports a file that imports one of python2Modules outside a
// try statement (where `except ImportError:` would fall back to Python
// 3's): it runs on Python 2 only, so on PyTorch 1.4 or older (blind
// sample S16N's NER-pytorch, `import cPickle`, got fused=True).
func python2Only(f *rewrite.File) bool {
	if !bytes.Contains(f.Src.Bytes, []byte("import ")) {
		return false
	}
	for _, imp := range f.OfType("import_statement") {
		if imp.Ancestor("try_statement") != nil {
			continue
		}
		for _, n := range imp.NamedChildren() {
			name := n
			if n.Type == "aliased_import" {
				name = n.ChildByField("name")
			}
			if name != nil && python2Modules[name.Text()] {
				return true
			}
		}
	}
	return false
}

// removedAPIs are callables later releases removed, with the torch release
// that first lacks them (through the companion library released with it):
// code that calls one runs only on the releases before. torchvision 0.12
// (torch 1.11) removed transforms.Scale and RandomSizedCrop; torchtext
// 0.9 (torch 1.8) moved Field, the iterators and the datasets built on
// them to torchtext.legacy.
var removedAPIs = map[string]Version{
	"torchvision.transforms.Scale": {1, 11}, "torchvision.transforms.RandomSizedCrop": {1, 11},
	"torchvision.transforms.transforms.Scale": {1, 11}, "torchvision.transforms.transforms.RandomSizedCrop": {1, 11},
	"torchtext.data.Field": {1, 8}, "torchtext.data.LabelField": {1, 8}, "torchtext.data.RawField": {1, 8},
	"torchtext.data.Iterator": {1, 8}, "torchtext.data.BucketIterator": {1, 8}, "torchtext.data.BPTTIterator": {1, 8},
	"torchtext.data.TabularDataset": {1, 8}, "torchtext.data.Example": {1, 8}, "torchtext.data.Dataset": {1, 8},
}

// removedAPIText finds the same calls in the text of a module that is
// not parsed (an importer, read as source only).
var (
	removedTransformText = regexp.MustCompile(`transforms\.(Scale|RandomSizedCrop)\(`)
	legacyTorchtextText  = regexp.MustCompile(`\b(Field|LabelField|BucketIterator|TabularDataset)\(`)
)

// removedAPIBound returns the first torch release this file's code cannot
// run on, read from the removed APIs it calls (removedAPIs), or a project
// module it imports, or one that imports it, calls (a script building
// torchtext fields that hands the iterators to this module's train
// function): blind sample S14E's fixes wrote torch.inference_mode (1.9)
// and set_float32_matmul_precision (1.12) into projects that run only on
// torch 1.7 and 1.10. ok is false when no such call is seen.
func removedAPIBound(m *rewrite.Model) (bound Version, ok bool) {
	if !m.Imports("torch") {
		return Version{}, false // no torch advice to hold back
	}
	note := func(v Version) {
		if !ok || v.Major < bound.Major || v.Major == bound.Major && v.Minor < bound.Minor {
			bound, ok = v, true
		}
	}
	calls := func(fm *rewrite.Model) {
		if !fm.File.SpellsAny([]string{"Scale", "RandomSizedCrop", "Field", "LabelField", "RawField", "Iterator", "BucketIterator", "BPTTIterator", "TabularDataset", "Example", "Dataset"}) {
			return
		}
		for _, c := range fm.File.OfType("call") {
			if v, found := removedAPIs[fm.CalleeName(c)]; found {
				note(v)
			}
		}
	}
	text := func(src []byte) {
		if removedTransformText.Match(src) {
			note(Version{1, 11})
		}
		if bytes.Contains(src, []byte("torchtext")) && !bytes.Contains(src, []byte("torchtext.legacy")) && legacyTorchtextText.Match(src) {
			note(Version{1, 8})
		}
	}
	calls(m)
	if python2Only(m.File) {
		note(Version{1, 5}) // PyTorch 1.5 dropped Python 2
	}
	m.ImportsProjectModule(func(mod *rewrite.ProjectDef) bool {
		if fm := m.ModuleOf(mod); fm != nil && fm != m {
			calls(fm)
		}
		return false
	})
	for _, src := range m.ImporterSources() {
		text(src)
	}
	return bound, ok
}

// torchAPIsSince are torch callables with the release that introduced
// them: code that calls one cannot run on an older torch, whatever its
// requirements pin.
var torchAPIsSince = []struct {
	name  string
	since Version
}{
	{"torch.compile", Version{2, 0}},
	{"torch.nn.functional.scaled_dot_product_attention", Version{2, 0}},
	{"torch.set_float32_matmul_precision", Version{1, 12}},
	{"torch.autocast", Version{1, 10}},
	{"torch.inference_mode", Version{1, 9}},
	{"torch.cuda.amp.autocast", Version{1, 6}},
	{"torch.cuda.amp.GradScaler", Version{1, 6}},
}

// newerAPIThanPin returns the newest torch API m calls that the pinned
// version pin predates, and its release; calls under a test of torch's
// version (`if torch.__version__ >= ...`, `hasattr(torch, ...)`) are
// the code's own guards and do not count.
func newerAPIThanPin(m *rewrite.Model, pin Version) (string, Version, bool) {
	if pin == DefaultVersions.Torch || !m.Imports("torch") {
		return "", Version{}, false
	}
	for _, api := range torchAPIsSince {
		if pin.AtLeast(api.since.Major, api.since.Minor) {
			continue
		}
		for _, call := range m.CallsTo(api.name) {
			if !underVersionTest(call) {
				return api.name, api.since, true
			}
		}
	}
	return "", Version{}, false
}

// underVersionTest reports a node under an if (or in a try) that tests
// which torch runs: `__version__`, `hasattr(torch, ...)`, or an
// ImportError fallback.
func underVersionTest(n *rewrite.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		switch a.Type {
		case "if_statement", "elif_clause":
			if c := a.ChildByField("condition"); c != nil && (strings.Contains(c.Text(), "__version__") || strings.Contains(c.Text(), "hasattr(")) {
				return true
			}
		case "try_statement":
			return true
		}
	}
	return false
}

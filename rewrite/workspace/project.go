package workspace

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// Project is the index of a project's modules that rewrite.ProjectIndex
// asks for: which top-level classes and functions a sibling module
// defines. A run of the CLI makes one for its paths; the language server
// one per workspace. A module is read and summarised once, on first use,
// so a file that imports nothing from its project costs nothing; each
// summary is a handful of strings (no tree is kept).
type Project struct {
	roots []string
	mu    sync.Mutex
	mods  map[string]*module    // by file path
	found map[resolveKey]string // (importing file's directory, module) -> file path ("" none)
	// dirs caches the absolute directory of each absolute importing path
	// resolve was asked about: the rules ask about one file's imports
	// hundreds of times per analysis, and filepath.Abs cleans the path
	// each time. Only absolute paths are kept, whose directory does not
	// depend on the working directory.
	dirs map[string]string
	// imports are the words of each module's import statements, by file
	// path, from one scan on the first Importers question, from each
	// root's repository top (scanned).
	importsOnce sync.Once
	byKey       map[string][]importRef // "module\x00name" -> the imports of name from a module so named
	pyFiles     []string               // the modules under the roots themselves, from the same scan
	// notebooks are the notebooks under the scanned directories, whose
	// code cells count as importers (Source gives their code).
	notebooks map[string]bool
	// scanned are the directories the scan walked: each root's
	// repository top (the nearest directory above it with a .git), or the
	// root itself outside a repository, so that a checked subfolder's
	// callers elsewhere in its repository are seen.
	scanned []string
	// unseenCallers: the same scan stopped at maxScanned, found a
	// notebook it could not read, or a module that imports others by
	// name at run time (importlib.import_module, __import__), whose calls
	// the import index does not see.
	unseenCallers bool
	// repoTops caches the repository top (the nearest directory with a
	// .git, "" none) of each directory CoversRepository was asked about:
	// the server asks once per reported function on every edit.
	repoTops map[string]string
	// spelling caches ModulesSpelling's answers, by set of words.
	spelling map[string][]string
	// free are the caches of parsed modules no model uses now.
	free []*rewrite.ForeignModels
}

type module struct {
	once sync.Once
	defs map[string]*rewrite.ProjectDef
}

// NewProject returns an empty index whose absolute imports also resolve
// against roots (the directories the user named, or the workspace).
func NewProject(roots ...string) *Project {
	var rs []string
	for _, r := range roots {
		if st, err := os.Stat(r); err == nil {
			if !st.IsDir() {
				r = filepath.Dir(r)
			}
			if abs, err := filepath.Abs(r); err == nil {
				rs = append(rs, abs)
			}
		}
	}
	return &Project{roots: rs, mods: map[string]*module{}, found: map[resolveKey]string{}, dirs: map[string]string{}}
}

// Def implements rewrite.ProjectIndex.
func (p *Project) Def(fromPath, mod, name string) *rewrite.ProjectDef {
	if p == nil || fromPath == "" || fromPath == "-" {
		return nil
	}
	path := p.resolve(fromPath, mod)
	if path == "" {
		return nil
	}
	return p.local(path, name, 0)
}

// local returns what name is at the top level of the module at path: its
// definition, or, for a name the module imports from another project
// module (a package __init__ re-exporting it) or gets from a star import,
// that module's definition, a few imports deep.
func (p *Project) local(path, name string, depth int) *rewrite.ProjectDef {
	defs := p.summary(path)
	d := defs[name]
	if depth > 4 {
		return d
	}
	if d != nil && d.From != "" {
		mod, orig, ok := rewrite.SplitFrom(d.From)
		if !ok {
			return nil
		}
		if target := p.resolve(path, mod); target != "" && target != path {
			return p.local(target, orig, depth+1)
		}
		if d.External != "" {
			return &rewrite.ProjectDef{Path: d.Path, Name: d.Name, External: d.External} // from outside the project
		}
		return nil
	}
	if d == nil && name != rewrite.ModuleKey && defs[rewrite.ModuleKey] != nil {
		stars := defs[rewrite.ModuleKey].Star
		for i := len(stars) - 1; i >= 0; i-- {
			if target := p.resolve(path, stars[i]); target != "" && target != path {
				if sd := p.local(target, name, depth+1); sd != nil {
					return sd
				}
			}
		}
	}
	return d
}

// Local implements rewrite.LocalDefs: the definition a name at the top
// level of the module at path stands for.
func (p *Project) Local(path, name string) *rewrite.ProjectDef {
	if p == nil {
		return nil
	}
	return p.local(path, name, 0)
}

// Forget drops the summary of a module whose text changed (the editor).
func (p *Project) Forget(path string) {
	if p == nil {
		return
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	p.mu.Lock()
	delete(p.mods, abs)
	for _, fm := range p.free {
		fm.Forget(abs)
	}
	if p.byKey != nil {
		// Imports it no longer has stay listed: Importers' callers check
		// the calls themselves.
		refs, dynamic := fromImports(abs)
		for _, r := range refs {
			p.byKey[r.key] = append(p.byKey[r.key], r.importRef)
		}
		p.unseenCallers = p.unseenCallers || dynamic
	}
	p.mu.Unlock()
}

// resolveKey is what resolve's answer depends on: the importing file's
// absolute directory and the module's dotted name.
type resolveKey struct{ dir, mod string }

// resolve returns the file a module imported from fromPath is, or "".
func (p *Project) resolve(fromPath, mod string) string {
	p.mu.Lock()
	if dir, ok := p.dirs[fromPath]; ok {
		if f, ok := p.found[resolveKey{dir, mod}]; ok {
			p.mu.Unlock()
			return f
		}
	}
	p.mu.Unlock()
	from, err := filepath.Abs(fromPath)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(from)
	key := resolveKey{dir, mod}
	p.mu.Lock()
	if filepath.IsAbs(fromPath) {
		p.dirs[fromPath] = dir
	}
	if f, ok := p.found[key]; ok {
		p.mu.Unlock()
		return f
	}
	p.mu.Unlock()
	var bases []string
	rest := mod
	if strings.HasPrefix(mod, ".") {
		level := len(mod) - len(strings.TrimLeft(mod, "."))
		rest = mod[level:]
		base := dir
		for i := 1; i < level; i++ {
			base = filepath.Dir(base)
		}
		bases = []string{base}
	} else {
		// The importing file's directory and two above it, then the roots.
		bases = []string{dir, filepath.Dir(dir), filepath.Dir(filepath.Dir(dir))}
		bases = append(bases, p.roots...)
	}
	found := ""
	if rest != "" {
		rel := filepath.Join(strings.Split(rest, ".")...)
		for _, b := range bases {
			for _, c := range []string{filepath.Join(b, rel+".py"), filepath.Join(b, rel, "__init__.py")} {
				if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() && c != from {
					found = c
					break
				}
			}
			if found != "" {
				break
			}
		}
	}
	if found == "" && rest != "" && !strings.HasPrefix(mod, ".") && !libraryModule(mod) {
		found = p.bySuffix(filepath.Join(strings.Split(rest, ".")...), from)
	}
	p.mu.Lock()
	p.found[key] = found
	p.mu.Unlock()
	return found
}

// bySuffix resolves an absolute import that no base directory holds
// (research code that does `sys.path.append(third_party_dir)` and then
// `from my_lib.runner import *`): the one module of the project whose path
// ends in rel.py or rel/__init__.py; "" when none or several do.
func (p *Project) bySuffix(rel, from string) string {
	p.importsOnce.Do(p.scanImports)
	p.mu.Lock()
	files := p.pyFiles
	p.mu.Unlock()
	found := ""
	for _, suffix := range []string{string(filepath.Separator) + rel + ".py", string(filepath.Separator) + filepath.Join(rel, "__init__.py")} {
		for _, f := range files {
			if strings.HasSuffix(f, suffix) && f != from {
				if found != "" && found != f {
					return "" // ambiguous
				}
				found = f
			}
		}
	}
	return found
}

// libraryModule reports an import of a library gpuopt knows is not part
// of the user's project, which bySuffix need not look for.
func libraryModule(mod string) bool {
	top, _, _ := strings.Cut(mod, ".")
	return knownLibraries[top]
}

var knownLibraries = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Fields(`torch torchvision torchaudio torchtext timm transformers accelerate datasets
		numpy pandas xgboost lightgbm catboost sklearn scipy cupy cudf cuml matplotlib seaborn PIL cv2 tqdm
		wandb mlflow tensorboard einops apex lightning pytorch_lightning albumentations
		os sys math random time json re typing collections itertools functools pathlib argparse logging
		copy pickle glob shutil subprocess warnings dataclasses abc io csv gc datetime enum contextlib`) {
		m[l] = true
	}
	return m
}()

// summary returns the top-level definitions of the module at path.
func (p *Project) summary(path string) map[string]*rewrite.ProjectDef {
	p.mu.Lock()
	m, ok := p.mods[path]
	if !ok {
		m = &module{}
		p.mods[path] = m
	}
	p.mu.Unlock()
	m.once.Do(func() {
		b, err := os.ReadFile(path)
		if err != nil || len(b) > MaxFileSize || CheckText(b) != nil {
			return
		}
		f := rewrite.Parse(path, b)
		// The summary does not follow the module's own project imports:
		// one level is what the rules need, and it keeps summaries from
		// waiting on each other.
		m.defs = rewrite.Summarize(f, path)
		f.Release()
	})
	return m.defs
}

// maxScanned bounds the modules Importers scans: past it a project is too
// large to scan on a question, and call sites in the rest are not seen.
const maxScanned = 5000

// Importers implements rewrite.ProjectSources: the modules under the
// project's roots, other than path, with a `from <module> import name`
// (or `import *`) whose module is the one at path.
func (p *Project) Importers(path, name string) []string {
	if p == nil {
		return nil
	}
	p.importsOnce.Do(p.scanImports)
	mod := strings.TrimSuffix(filepath.Base(path), ".py")
	if mod == "__init__" {
		mod = filepath.Base(filepath.Dir(path))
	}
	p.mu.Lock()
	refs := append(slices.Clip(p.byKey[mod+"\x00"+name]), p.byKey[mod+"\x00*"]...)
	refs = append(refs, p.byKey[mod+"\x00"+moduleImport]...) // `import engine`: engine.name(...)
	p.mu.Unlock()
	var out []string
	for _, r := range refs {
		if r.file != path && !slices.Contains(out, r.file) && p.resolve(r.file, r.module) == path {
			out = append(out, r.file)
		}
	}
	sort.Strings(out)
	return out
}

// Modules implements rewrite.ProjectSources: the Python modules under the
// project's roots (absolute paths, at most maxScanned).
func (p *Project) Modules() []string {
	if p == nil {
		return nil
	}
	p.importsOnce.Do(p.scanImports)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pyFiles
}

// Source implements rewrite.ProjectSources: a module's text, or a
// notebook's code cells joined.
func (p *Project) Source(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > MaxFileSize || CheckText(b) != nil {
		return nil
	}
	if strings.HasSuffix(path, ".ipynb") {
		code, ok := notebookCode(path, b)
		if !ok {
			return nil
		}
		return code
	}
	return b
}

// notebookCode joins the code cells of a notebook, false when it is not
// one gpuopt reads.
func notebookCode(path string, raw []byte) ([]byte, bool) {
	nb, err := notebook.Parse(path, raw)
	if err != nil {
		return nil, false
	}
	var code []byte
	for _, c := range nb.Cells {
		if c.Kind == "code" {
			code = append(append(code, c.Source...), '\n')
		}
	}
	return code, true
}

// importRef is a `from <module> import ...` statement of a file.
type importRef struct {
	file, module string
}

// keyedImport is an importRef with its index key.
type keyedImport struct {
	importRef
	key string
}

// scanImports reads the from-imports of the Python modules under the
// roots (no parse: a scan of the lines that start with "from ").
func (p *Project) scanImports() {
	byKey := map[string][]importRef{}
	seen := map[string]bool{}
	var files []string
	notebooks := map[string]bool{}
	unreadable, dynamic, truncated := false, false, false
	scanned := p.scanRoots()
	for _, root := range scanned {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || len(seen) >= maxScanned {
				truncated = truncated || err == nil
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || IsVirtualenv(path)) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || seen[path] {
				return nil
			}
			var refs []keyedImport
			var dyn bool
			switch {
			case strings.HasSuffix(path, ".ipynb"):
				seen[path] = true
				abs, err := filepath.Abs(path)
				code := p.Source(abs)
				if err != nil || code == nil {
					unreadable = true
					return nil
				}
				notebooks[abs] = true
				refs, dyn = importsIn(abs, code)
			case strings.HasSuffix(path, ".py"):
				seen[path] = true
				if abs, err := filepath.Abs(path); err == nil && p.underRoots(abs) {
					files = append(files, abs)
				}
				refs, dyn = fromImports(path)
			default:
				return nil
			}
			for _, r := range refs {
				byKey[r.key] = append(byKey[r.key], r.importRef)
			}
			dynamic = dynamic || dyn
			return nil
		})
	}
	p.mu.Lock()
	p.byKey = byKey
	p.pyFiles = files
	p.notebooks = notebooks
	p.scanned = scanned
	p.unseenCallers = unreadable || dynamic || truncated
	p.mu.Unlock()
}

// underRoots reports an absolute path under one of the project's roots
// (the folders the user named): the modules that method-call and word
// searches read. The import index reaches further, to the repository's
// top, since an import names its module exactly.
func (p *Project) underRoots(abs string) bool {
	for _, r := range p.roots {
		if abs == r || strings.HasPrefix(abs, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// scanRoots are the directories scanImports walks: each root's
// repository top, or the root outside a repository, none inside another.
func (p *Project) scanRoots() []string {
	var out []string
	for _, r := range p.roots {
		if top := p.repositoryTop(r); top != "" {
			r = top
		}
		out = append(out, r)
	}
	slices.Sort(out)
	return slices.CompactFunc(out, func(a, b string) bool {
		return a == b || strings.HasPrefix(b, a+string(filepath.Separator))
	})
}

// moduleImport is the key's name part for a whole-module import (`import
// engine`, `import pkg.engine as e`): its names are used as attributes.
const moduleImport = "."

// fromImports returns a module's `from <module> import a, b as c` / `import
// *` statements, keyed by the module's last component and each imported
// name ("*" for a star), continuation lines of parenthesised or
// backslashed statements included, and its `import a.b [as c], d`
// statements, keyed by each module's last component and moduleImport.
func fromImports(path string) (out []keyedImport, dynamic bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > MaxFileSize {
		return nil, false
	}
	return importsIn(path, b)
}

// configLoader reports a module whose dynamic import loads a temporary
// copy of a config file (mmcv's Config.fromfile and its copies:
// `tempfile.TemporaryDirectory()`, the config copied in, then
// `import_module(temp_module_name)`): it reaches no module of the
// project, so the project's functions keep their known callers (blind
// sample S37F's query2label SLConfig made a dead `train_kfold` look
// reachable).
func configLoader(b []byte) bool {
	return bytes.Contains(b, []byte("tempfile")) && bytes.Contains(b, []byte("import_module("))
}

// libraryChoiceLoop matches a loop over a literal list of module names
// whose body imports the one it is at: `for module in
// ["torch.utils.tensorboard", "tensorboardX"]:` then
// `importlib.import_module(module)` (pytorch-template's TensorboardWriter,
// copied into many projects).
var libraryChoiceLoop = regexp.MustCompile(`for (\w+) in [\[(]((?:\s*["'][\w.]+["']\s*,?)+)[\])]:`)

// dottedName matches a module's dotted name.
var dottedName = regexp.MustCompile(`[\w.]+`)

// choiceLibraries are the top-level packages a libraryChoice may name:
// libraries, never a module of the project.
var choiceLibraries = map[string]bool{"torch": true, "tensorboardX": true, "tensorflow": true, "wandb": true, "mlflow": true, "visdom": true}

// libraryChoice reports a module whose only dynamic imports pick one of
// a literal list of libraries (libraryChoiceLoop): it reaches no module
// of the project, so the project's functions keep their known callers
// (blind sample S39D's COVIDNet, whose logger made an uncalled train()
// look reachable).
func libraryChoice(b []byte) bool {
	if bytes.Contains(b, []byte("__import__(")) {
		return false
	}
	calls := bytes.Count(b, []byte("import_module("))
	seen := 0
	for _, loc := range libraryChoiceLoop.FindAllSubmatchIndex(b, -1) {
		for _, name := range dottedName.FindAll(b[loc[4]:loc[5]], -1) {
			if !choiceLibraries[strings.SplitN(string(name), ".", 2)[0]] {
				return false
			}
		}
		// Only the loop's own body: the lines after it indented deeper
		// than the `for` (a later loop reusing the name imports
		// something else).
		seen += bytes.Count(loopBody(b, loc[0], loc[1]), []byte("import_module("+string(b[loc[2]:loc[3]])+")"))
	}
	return seen > 0 && seen == calls
}

// loopBody returns the lines of b after a `for` header (b[start:end])
// that are indented deeper than the header's line.
func loopBody(b []byte, start, end int) []byte {
	lineStart := bytes.LastIndexByte(b[:start], '\n') + 1
	indent := start - lineStart
	rest := b[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[i+1:]
	} else {
		return nil
	}
	n := 0
	for len(rest[n:]) > 0 {
		line := rest[n:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		trimmed := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(line)) > 0 && len(line)-len(trimmed) <= indent {
			break
		}
		n += len(line)
	}
	return rest[:n]
}

// importsIn is fromImports of the code b of the module or notebook at
// path.
func importsIn(path string, b []byte) (out []keyedImport, dynamic bool) {
	dynamic = (bytes.Contains(b, []byte("import_module(")) || bytes.Contains(b, []byte("__import__("))) && !configLoader(b) && !libraryChoice(b)
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "import ") {
			out = append(out, moduleImports(path, t)...)
			continue
		}
		if !strings.HasPrefix(t, "from ") {
			continue
		}
		stmt := t
		for (strings.Count(stmt, "(") > strings.Count(stmt, ")") || strings.HasSuffix(stmt, "\\")) && i+1 < len(lines) {
			i++
			stmt = strings.TrimSuffix(stmt, "\\") + " " + strings.TrimSpace(lines[i])
		}
		if j := strings.IndexByte(stmt, '#'); j >= 0 {
			stmt = stmt[:j]
		}
		module, names, ok := strings.Cut(strings.TrimPrefix(stmt, "from "), " import ")
		module = strings.TrimSpace(module)
		last := module[strings.LastIndexByte(module, '.')+1:]
		if !ok || module == "" {
			continue
		}
		names = strings.NewReplacer("(", " ", ")", " ").Replace(names)
		for _, n := range strings.Split(names, ",") {
			f := strings.Fields(n)
			if len(f) == 0 || f[0] == "*" && last == "" {
				continue
			}
			if last != "" {
				out = append(out, keyedImport{importRef{path, module}, last + "\x00" + f[0]})
			}
			if f[0] != "*" {
				// `from pkg import function` (or `from . import
				// function`) may import the submodule pkg/function.py,
				// whose names the file then calls as function.train(...)
				// (blind sample S33AC: STAR's and HRNet's training
				// modules were taken for never called).
				sub := module + "." + f[0]
				if strings.HasSuffix(module, ".") {
					sub = module + f[0]
				}
				out = append(out, keyedImport{importRef{path, sub}, f[0] + "\x00" + moduleImport})
			}
		}
	}
	return out, dynamic
}

// Borrow implements rewrite.ProjectSources.
func (p *Project) Borrow() *rewrite.ForeignModels {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		fm := p.free[n-1]
		p.free = p.free[:n-1]
		return fm
	}
	return &rewrite.ForeignModels{}
}

// Return implements rewrite.ProjectSources.
func (p *Project) Return(fm *rewrite.ForeignModels) {
	if fm == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < 64 {
		p.free = append(p.free, fm)
	}
}

// moduleImports returns the modules of one `import a.b as c, d` line.
func moduleImports(path, line string) []keyedImport {
	if j := strings.IndexAny(line, "#;"); j >= 0 {
		line = line[:j]
	}
	var out []keyedImport
	for _, item := range strings.Split(strings.TrimPrefix(line, "import "), ",") {
		f := strings.Fields(item)
		if len(f) == 0 || strings.ContainsAny(f[0], "()\\") {
			continue
		}
		module := f[0]
		last := module[strings.LastIndexByte(module, '.')+1:]
		if last != "" {
			out = append(out, keyedImport{importRef{path, module}, last + "\x00" + moduleImport})
		}
	}
	return out
}

// Distributed implements rewrite.WholeRepository: the repository that
// holds path has a setup.py, setup.cfg or pyproject.toml at its top (or,
// without a .git above path, true: it cannot tell).
func (p *Project) Distributed(path string) bool {
	top := p.repositoryTop(filepath.Dir(path))
	if top == "" {
		return true
	}
	for _, f := range []string{"setup.py", "setup.cfg", "pyproject.toml"} {
		if _, err := os.Stat(filepath.Join(top, f)); err == nil {
			return true
		}
	}
	return false
}

// CoversRepository reports whether the scan reached every module of the
// repository that holds path, and every caller there: it walked the
// repository's top (the nearest directory above path with a .git, which
// the scan starts from even when the user named a subfolder) or above it,
// stopped short of maxScanned, read every notebook's code cells, and
// found no import by name at run time. Without a .git above path it
// cannot tell, and says no.
func (p *Project) CoversRepository(path string) bool {
	if p == nil {
		return false
	}
	top := p.repositoryTop(filepath.Dir(path))
	if top == "" {
		return false
	}
	if len(p.Modules()) >= maxScanned {
		return false
	}
	p.mu.Lock()
	unseen := p.unseenCallers
	p.mu.Unlock()
	if unseen {
		return false
	}
	p.mu.Lock()
	scanned := p.scanned
	p.mu.Unlock()
	for _, r := range scanned {
		if r == top || strings.HasPrefix(top, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// repositoryTop is the nearest directory at or above dir that holds a
// .git, or "" when none does, from the cache after the first question.
func (p *Project) repositoryTop(dir string) string {
	p.mu.Lock()
	top, ok := p.repoTops[dir]
	p.mu.Unlock()
	if ok {
		return top
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	p.mu.Lock()
	if p.repoTops == nil {
		p.repoTops = map[string]string{}
	}
	p.repoTops[dir] = top
	p.mu.Unlock()
	return top
}

// ModulesSpelling returns the project's modules whose text holds one of
// words, reading them once per set of words asked about.
func (p *Project) ModulesSpelling(words ...string) []string {
	if p == nil || len(words) == 0 {
		return nil
	}
	mods := p.Modules()
	key := strings.Join(words, "\x00")
	p.mu.Lock()
	found, ok := p.spelling[key]
	p.mu.Unlock()
	if ok {
		return found
	}
	bs := make([][]byte, len(words))
	for i, w := range words {
		bs[i] = []byte(w)
	}
	for _, path := range mods {
		src := p.Source(path)
		for _, w := range bs {
			if bytes.Contains(src, w) {
				found = append(found, path)
				break
			}
		}
	}
	p.mu.Lock()
	if p.spelling == nil {
		p.spelling = map[string][]string{}
	}
	p.spelling[key] = found
	p.mu.Unlock()
	return found
}

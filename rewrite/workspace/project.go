package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gpuopt/gpuopt/rewrite"
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
	mods  map[string]*module // by file path
	found map[string]string  // "dir\x00module" -> file path ("" none)
	// imports are the words of each module's import statements, by file
	// path, from one scan of the roots on the first Importers question.
	importsOnce sync.Once
	imports     map[string]map[string]bool
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
	return &Project{roots: rs, mods: map[string]*module{}, found: map[string]string{}}
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
	return p.summary(path)[name]
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
	if p.imports != nil {
		if _, ok := p.imports[abs]; ok {
			p.imports[abs] = importWords(abs)
		}
	}
	p.mu.Unlock()
}

// resolve returns the file a module imported from fromPath is, or "".
func (p *Project) resolve(fromPath, mod string) string {
	from, err := filepath.Abs(fromPath)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(from)
	key := dir + "\x00" + mod
	p.mu.Lock()
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
	p.mu.Lock()
	p.found[key] = found
	p.mu.Unlock()
	return found
}

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
// project's roots, other than path, whose import statements name both the
// module at path (its file or package name) and name, or star-import.
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
	defer p.mu.Unlock()
	var out []string
	for f, words := range p.imports {
		if f != path && (words[name] || words["*"]) && words[mod] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Source implements rewrite.ProjectSources.
func (p *Project) Source(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > MaxFileSize || CheckText(b) != nil {
		return nil
	}
	return b
}

// scanImports reads the import statements of the Python modules under the
// roots (no parse: a line scan).
func (p *Project) scanImports() {
	imports := map[string]map[string]bool{}
	for _, root := range p.roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || len(imports) >= maxScanned {
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
			if !d.Type().IsRegular() || !strings.HasSuffix(path, ".py") {
				return nil
			}
			if _, ok := imports[path]; !ok {
				imports[path] = importWords(path)
			}
			return nil
		})
	}
	p.mu.Lock()
	p.imports = imports
	p.mu.Unlock()
}

// importWords returns the identifiers of a module's import statements
// (`from a.b import c, d as e` gives a, b, c, d, e), continuation lines of
// parenthesised imports included.
func importWords(path string) map[string]bool {
	words := map[string]bool{}
	b, err := os.ReadFile(path)
	if err != nil || len(b) > MaxFileSize {
		return words
	}
	paren, cont := false, false
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if !paren && !cont && !strings.HasPrefix(t, "from ") && !strings.HasPrefix(t, "import ") {
			continue
		}
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		cont = strings.HasSuffix(t, "\\")
		if strings.Contains(t, "(") {
			paren = true
		}
		if strings.Contains(t, ")") {
			paren = false
		}
		if strings.Contains(t, "*") {
			words["*"] = true // a star import: any name of the module may be used
		}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127)
		}) {
			words[w] = true
		}
	}
	return words
}

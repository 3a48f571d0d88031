package rewrite

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Call sites across modules: a function or class defined at the top level
// of this file and called from another module of the project that imports
// it (`from trainers.train_runner import Trainer` in main.py, then
// `Trainer(model=model, train_loader=train_loader)`). Its parameters get
// their values there. The project index names the modules that may call
// it (ProjectSources.Importers, a scan of their import lines made once per
// run); this model parses those modules into a ForeignModels it borrows
// from the project and gives back when its file is released: a model is
// not safe for concurrent use, so no two files use one at a time, but a
// worker's next file reuses what its last one parsed.

// LocalDefs is a ProjectIndex that also answers what a name at the top of
// a project module stands for (its own definition, or one it imports).
type LocalDefs interface {
	Local(path, name string) *ProjectDef
}

// ClassCalls reports whether the project class d, or a project class it
// builds (in its module, imported, or star-imported there), calls a
// callable that pred accepts: a U-Net built from DoubleConv blocks of a
// parts module builds convolutions.
func (m *Model) ClassCalls(d *ProjectDef, pred func(string) bool) bool {
	return m.ClassAny(d, func(c *ProjectDef) bool { return slices.ContainsFunc(c.Calls, pred) })
}

// ClassAny reports whether pred holds for the project class d or a
// project class it builds, three levels deep (as ClassCalls).
func (m *Model) ClassAny(d *ProjectDef, pred func(*ProjectDef) bool) bool {
	return m.classAny(d, pred, 0)
}

func (m *Model) classAny(d *ProjectDef, pred func(*ProjectDef) bool, depth int) bool {
	if d == nil || !d.Class {
		return false
	}
	if pred(d) {
		return true
	}
	ld, ok := m.project.(LocalDefs)
	if !ok || depth >= 3 {
		return false
	}
	for _, q := range d.Calls {
		if strings.Contains(q, ".") {
			// Qualified: a library callable, or a class of a sibling
			// module the class's module imports (`from
			// src.word_att_model import WordAttNet`).
			if strings.HasPrefix(q, "torch.") {
				continue
			}
			if inner := m.ProjectDefOf(d.Path, q); inner != nil && inner != d && m.classAny(inner, pred, depth+1) {
				return true
			}
			continue
		}
		if inner := ld.Local(d.Path, q); inner != nil && inner != d && m.classAny(inner, pred, depth+1) {
			return true
		}
	}
	return false
}

// ProjectSources is a ProjectIndex that can also list the modules of the
// project that import a name and read their text.
type ProjectSources interface {
	ProjectIndex
	// Importers returns the project modules other than the one at path
	// whose import statements name the module at path or name (the
	// candidates for calling name; a caller checks the calls itself).
	Importers(path, name string) []string
	// Source returns the text of a project module, nil when unreadable.
	Source(path string) []byte
	// Modules returns the paths of the project's Python modules.
	Modules() []string
	// Borrow hands out a cache of parsed modules that no other model
	// uses until it is given back with Return.
	Borrow() *ForeignModels
	Return(*ForeignModels)
}

// WordIndex is a ProjectIndex that can tell which of its modules spell
// one of some words somewhere in their text.
type WordIndex interface {
	ModulesSpelling(words ...string) []string
}

// ProjectSpells reports whether this file, or another module of the
// project when the index can tell, spells one of words: the model that a
// training script builds may live in any of them.
func (m *Model) ProjectSpells(words ...string) bool {
	own, wi := m.spellsHere(words)
	return own || wi != nil && len(wi.ModulesSpelling(words...)) > 0
}

// ProjectSourcesSpelling returns the text of this file and of the
// project's other modules that spell one of words (the project's word
// index finds them; none without one), for checks that must read what
// those modules say next to the word.
func (m *Model) ProjectSourcesSpelling(words ...string) [][]byte {
	out := [][]byte{m.File.Src.Bytes}
	wi, _ := m.project.(WordIndex)
	ps, _ := m.project.(ProjectSources)
	if wi == nil || ps == nil {
		return out
	}
	self := m.absPath()
	for _, path := range wi.ModulesSpelling(words...) {
		if path == self {
			continue
		}
		if src := ps.Source(path); src != nil {
			out = append(out, src)
		}
	}
	return out
}

// ProjectModelsSpelling is ProjectSourcesSpelling as models: this file's,
// then each other project module's that spells one of words, parsed once
// for this model (the cache DefinitionOf and ForeignCallSites use) rather
// than by every caller that reads them.
func (m *Model) ProjectModelsSpelling(words ...string) []*Model {
	out := []*Model{m}
	wi, _ := m.project.(WordIndex)
	if wi == nil {
		return out
	}
	self := m.absPath()
	for _, path := range wi.ModulesSpelling(words...) {
		if path == self {
			continue
		}
		if fm := m.foreignModel(path); fm != nil {
			out = append(out, fm)
		}
	}
	return out
}

// spellsHere reports whether this file spells one of words, and otherwise
// hands back the project's word index (nil when there is none).
func (m *Model) spellsHere(words []string) (bool, WordIndex) {
	for _, w := range words {
		if m.fileSpells(w) {
			return true, nil
		}
	}
	wi, _ := m.project.(WordIndex)
	return false, wi
}

// fileSpells reports whether this file's text contains word, scanning
// the file once per word.
func (m *Model) fileSpells(word string) bool {
	if found, ok := m.spelled[word]; ok {
		return found
	}
	if m.spelled == nil {
		m.spelled = map[string]bool{}
	}
	found := bytes.Contains(m.File.Src.Bytes, []byte(word))
	m.spelled[word] = found
	return found
}

// ImportedModuleSpells is ProjectSpells for the modules this file
// imports: this file, or a project module whose name one of its import
// statements spells (`from src.env import MultipleEnvironments` for
// src/env.py), spells one of words.
func (m *Model) ImportedModuleSpells(words ...string) bool {
	own, wi := m.spellsHere(words)
	if own || wi == nil {
		return own
	}
	var imported []string // the module paths the imports name, as "a/b/c.py"
	for _, st := range m.File.OfType("import_statement") {
		for _, c := range st.NamedChildren() {
			if c.Type == "aliased_import" {
				c = c.ChildByField("name")
			}
			if c != nil && c.Type == "dotted_name" {
				imported = append(imported, modulePath(c.Text()))
			}
		}
	}
	for _, st := range m.File.OfType("import_from_statement") {
		mn := st.ChildByField("module_name")
		if mn == nil {
			continue
		}
		base := strings.TrimLeft(mn.Text(), ".")
		if base != "" {
			imported = append(imported, modulePath(base))
		}
		for _, c := range st.Children {
			if c.Field != "name" {
				continue
			}
			if c.Type == "aliased_import" {
				c = c.ChildByField("name")
			}
			if c == nil {
				continue
			}
			if base == "" {
				imported = append(imported, modulePath(c.Text())) // `from . import utils`
			} else {
				imported = append(imported, modulePath(base+"."+c.Text())) // `from src import env`
			}
		}
	}
	if len(imported) == 0 {
		return false
	}
	for _, path := range wi.ModulesSpelling(words...) {
		slashed := filepath.ToSlash(path)
		for _, suffix := range imported {
			// The whole tail of the module's path (`src/env.py` for
			// `from src.env import X`), so that `torch.utils.data`
			// does not name the project's utils.py.
			pkg := strings.TrimSuffix(suffix, ".py") + "/__init__.py" // `from models import X`
			if slashed == suffix || strings.HasSuffix(slashed, "/"+suffix) || strings.HasSuffix(slashed, "/"+pkg) {
				return true
			}
		}
	}
	return false
}

// modulePath turns a dotted module name into the tail of its file's path
// ("src.env" -> "src/env.py").
func modulePath(dotted string) string {
	return strings.ReplaceAll(dotted, ".", "/") + ".py"
}

// ForeignModels are the parsed modules of a project that one model at a
// time uses, by path.
type ForeignModels struct {
	models map[string]*Model
}

// maxForeign bounds a ForeignModels: past it, the cache starts over.
const maxForeign = 128

// parsed returns the module at path when it was parsed (nil when it
// could not be), ok false when it was not tried.
func (fm *ForeignModels) parsed(path string) (*Model, bool) {
	if fm == nil {
		return nil, false
	}
	m, ok := fm.models[path]
	return m, ok
}

// Forget drops the parsed module at path (its text changed).
func (fm *ForeignModels) Forget(path string) {
	if fm != nil {
		delete(fm.models, path)
	}
}

// ForeignCall is a call in another module of the project, with that
// module's model: ask Model, never this file's, about Call's names.
type ForeignCall struct {
	Model *Model
	Call  *Node
}

// absPath is the file's absolute path ("" when it has none), resolved on
// first use: filepath.Abs of a relative path asks the working directory
// (two stat calls), and rules ask it once per function definition.
func (m *Model) absPath() string {
	if m.abs == nil {
		a := m.File.Src.Path
		if a == "-" {
			a = ""
		}
		if a != "" {
			if full, err := filepath.Abs(a); err == nil {
				a = full
			}
		}
		m.abs = &a
	}
	return *m.abs
}

// foreignModel returns the model of the project module at path, parsed
// for this model on first use (nil when it cannot be read).
func (m *Model) foreignModel(path string) *Model {
	ps, ok := m.project.(ProjectSources)
	if !ok {
		return nil
	}
	if m.foreign == nil {
		m.foreign = ps.Borrow()
		if m.foreign == nil {
			return nil
		}
	}
	if m.foreign.models == nil || len(m.foreign.models) >= maxForeign {
		m.foreign.models = map[string]*Model{}
	}
	if fm, ok := m.foreign.models[path]; ok {
		return fm
	}
	m.foreign.models[path] = nil
	b := ps.Source(path)
	if b == nil {
		return nil
	}
	f := Parse(path, b)
	if f.TooDeep() {
		return nil
	}
	fm := f.Model()
	fm.SetProject(m.project)
	m.foreign.models[path] = fm
	return fm
}

// topLevelName returns the name under which other modules import def: the
// function's own name for a module-level function, the class's name for
// the __init__ of a module-level class; "" otherwise.
func topLevelName(def *Node) string {
	if def == nil || def.Type != "function_definition" {
		return ""
	}
	name := def.ChildByField("name")
	if name == nil {
		return ""
	}
	p := def.Parent
	if p != nil && p.Type == "decorated_definition" {
		p = p.Parent
	}
	if p != nil && p.Type == "module" {
		return name.Text()
	}
	if name.Text() != "__init__" || p == nil || p.Type != "block" || p.Parent == nil || p.Parent.Type != "class_definition" {
		return ""
	}
	cls := p.Parent
	cp := cls.Parent
	if cp != nil && cp.Type == "decorated_definition" {
		cp = cp.Parent
	}
	if cp == nil || cp.Type != "module" {
		return ""
	}
	if n := cls.ChildByField("name"); n != nil {
		return n.Text()
	}
	return ""
}

// MayHaveForeignCallSites reports whether ForeignCallSites has calls of
// def to look for: some other module of the project imports def's module
// by name or def itself. It parses nothing, for callers that would do work
// on def before asking.
func (m *Model) MayHaveForeignCallSites(def *Node) bool {
	_, _, importers := m.foreignImporters(def)
	return len(importers) > 0
}

// maxMethodScan bounds the modules ForeignMethodCalls reads: a project
// larger than that is not searched (complete is false).
const maxMethodScan = 2000

// ForeignMethodCalls returns the calls `<expr>.name(...)` in the other
// modules of the project that spell `.name(`: the call sites of a method
// reached through an object another module holds (a trainer's
// `self.model.init_hidden()`), matched by the method's name alone.
// complete is false without a project that lists its modules, or for one
// too large to search.
func (m *Model) ForeignMethodCalls(name string) (calls []ForeignCall, complete bool) {
	if r, ok := m.methodCalls[name]; ok {
		return r.calls, r.complete
	}
	calls, complete = m.foreignMethodCalls(name)
	if m.methodCalls == nil {
		m.methodCalls = map[string]methodCallsResult{}
	}
	m.methodCalls[name] = methodCallsResult{calls, complete}
	return calls, complete
}

// methodCallsResult is a cached ForeignMethodCalls answer.
type methodCallsResult struct {
	calls    []ForeignCall
	complete bool
}

func (m *Model) foreignMethodCalls(name string) (calls []ForeignCall, complete bool) {
	ps, ok := m.project.(ProjectSources)
	if !ok {
		return nil, false
	}
	self := m.absPath()
	if self == "" {
		return nil, false
	}
	paths := ps.Modules()
	if len(paths) > maxMethodScan {
		return nil, false
	}
	spelled := []byte("." + name + "(")
	for _, path := range paths {
		if path == self {
			continue
		}
		if fm, parsed := m.foreign.parsed(path); !parsed || fm == nil {
			if src := ps.Source(path); !bytes.Contains(src, spelled) {
				continue
			}
		}
		fm := m.foreignModel(path)
		if fm == nil {
			continue
		}
		for _, call := range fm.File.OfType("call") {
			if fn := call.ChildByField("function"); fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == name {
				calls = append(calls, ForeignCall{Model: fm, Call: call})
			}
		}
	}
	return calls, true
}

// ForeignCallSites returns the calls of def (a module-level function, or
// the __init__ of a module-level class, called by building an instance)
// in the other modules of the project that import it by name
// (`from <this module> import name`). Nil without a project that lists
// sources.
func (m *Model) ForeignCallSites(def *Node) []ForeignCall {
	if topLevelName(def) == "" {
		return nil
	}
	if calls, ok := m.foreignCalls[def]; ok {
		return calls
	}
	if m.foreignCalls == nil {
		m.foreignCalls = map[*Node][]ForeignCall{}
	}
	m.foreignCalls[def] = nil
	name, self, importers := m.foreignImporters(def)
	var out []ForeignCall
	ps, _ := m.project.(ProjectSources)
	for _, path := range importers {
		if fm, ok := m.foreign.parsed(path); !ok || fm == nil {
			// Not parsed yet: only a module that spells a call of the
			// name is worth parsing (a package's __init__ re-exports).
			if src := ps.Source(path); !bytes.Contains(src, []byte(name+"(")) {
				continue
			}
		}
		fm := m.foreignModel(path)
		if fm == nil {
			continue
		}
		for _, call := range fm.File.OfType("call") {
			fn := call.ChildByField("function")
			var d *ProjectDef
			switch {
			case fn == nil:
			case fn.Type == "identifier": // (an alias, `import Trainer as T`, is fine)
				d = fm.importedDef(fn)
			case fn.Type == "attribute" && fn.ChildByField("attribute").Text() == name:
				d = fm.moduleAttrDef(fn) // `import engine` ... engine.train_fn(...)
			}
			if d != nil && d.Path == self && d.Name == name {
				out = append(out, ForeignCall{Model: fm, Call: call})
			}
		}
	}
	m.foreignCalls[def] = out
	return out
}

// foreignImporters returns the name other modules import def by
// (topLevelName), this file's absolute path, and the project modules whose
// imports name it: none without a project that lists sources.
func (m *Model) foreignImporters(def *Node) (name, self string, importers []string) {
	name = topLevelName(def)
	if name == "" {
		return "", "", nil
	}
	ps, ok := m.project.(ProjectSources)
	if !ok {
		return name, "", nil
	}
	if self = m.absPath(); self == "" {
		return name, "", nil
	}
	return name, self, ps.Importers(self, name)
}

// ImporterSources returns the sources of the other project modules that
// import this module's classes or functions (a training script importing
// the module of its data loaders); nil without a project that lists
// sources.
func (m *Model) ImporterSources() [][]byte {
	if m.importers == nil {
		out := m.importerSources()
		m.importers = &out
	}
	return *m.importers
}

func (m *Model) importerSources() [][]byte {
	ps, ok := m.project.(ProjectSources)
	if !ok {
		return nil
	}
	self := m.absPath()
	if self == "" {
		return nil
	}
	seen := map[string]bool{}
	var out [][]byte
	for name, bs := range m.Module.Bindings {
		if len(bs) == 0 || bs[0].Kind != DefBinding && bs[0].Kind != ClassBinding {
			continue
		}
		for _, path := range ps.Importers(self, name) {
			if seen[path] {
				continue
			}
			seen[path] = true
			if src := ps.Source(path); src != nil {
				out = append(out, src)
			}
		}
	}
	return out
}

// DefinitionOf returns the model of the module that holds a project
// definition and the definition's statement (a class_definition or a
// function_definition), parsing that module on first use; nil, nil when it
// cannot be read.
func (m *Model) DefinitionOf(d *ProjectDef) (*Model, *Node) { return m.defNode(d) }

// ModuleOf returns the model of the module that holds d (a definition or
// a module's own entry): this file's, or the parsed project module's; nil
// when that module cannot be read.
func (m *Model) ModuleOf(d *ProjectDef) *Model {
	if d == nil {
		return nil
	}
	if d.Path == m.absPath() {
		return m
	}
	return m.foreignModel(d.Path)
}

// defNode returns the model and the node of a project definition: this
// file's own when the definition is here, else the parsed module's.
func (m *Model) defNode(d *ProjectDef) (*Model, *Node) {
	if d == nil {
		return nil, nil
	}
	owner := m
	if d.Path != m.absPath() {
		owner = m.foreignModel(d.Path)
	}
	if owner == nil {
		return nil, nil
	}
	bs := owner.Module.Bindings[d.Name]
	if len(bs) != 1 || (bs[0].Kind != DefBinding && bs[0].Kind != ClassBinding) || bs[0].Stmt == nil {
		return nil, nil
	}
	return owner, bs[0].Stmt
}

// WholeRepository is a project that can tell whether it reaches every
// module of the repository holding a path (workspace.Project).
type WholeRepository interface {
	CoversRepository(path string) bool
	// Distributed reports a repository that packages itself for others
	// to import (a setup.py, setup.cfg or pyproject.toml at its top):
	// what its packages re-export may be called from outside it.
	Distributed(path string) bool
}

// NeverCalled reports a module-level function or class that nothing in
// its project refers to, so that it never runs (a class: is never built,
// so its methods never run): no name in its own module stands for it
// (outside its own body; an attribute `x.name` or a keyword `name=` does
// not), no string there spells it, and no other module of the project
// that imports it, or imports its module, spells its name outside its
// import statements (a train() copied into utils.py beside the one
// function the project imports from there; a layer class imported and
// never built). False for a decorated definition (a registry or a
// command-line entry may call it), for main and dunder names, in a
// package's __init__.py or one re-exported by it, in a module that lists
// __all__ or reaches its functions by name (globals(), fire.Fire), where
// an importer reaches names dynamically (getattr, __dict__, eval), for a
// class in a project that imports modules by computed names (exec,
// importlib: a model registry), and without a project that lists its
// sources.
func (m *Model) NeverCalled(def *Node) bool {
	return m.neverCalled(def, map[*Node]bool{})
}

// neverCalled is NeverCalled; a use of the name inside another
// module-level function of this file that is itself never called does
// not count (blind sample S29C's IDM: train_edc's one caller,
// evaluate_synset_edc, is called by nothing). visiting holds the
// functions being asked about: a cycle counts as a use.
func (m *Model) neverCalled(def *Node, visiting map[*Node]bool) bool {
	if def == nil || def.Type != "function_definition" && def.Type != "class_definition" || def.Parent == nil {
		return false
	}
	if def.Parent.Type == "decorated_definition" && plainDecorators(def.Parent) {
		// `@torch.no_grad()` over an evaluation function nothing calls
		// (blind sample S39H's ViT classifier): the decorator registers
		// nothing that could call it.
		def = def.Parent
	}
	if def.Parent == nil || def.Parent.Type != "module" {
		return false
	}
	if def.Type == "decorated_definition" {
		def = def.ChildByField("definition")
	}
	name := def.ChildByField("name").Text()
	if name == "main" || strings.HasPrefix(name, "__") {
		return false
	}
	ps, ok := m.project.(ProjectSources)
	if !ok {
		return false
	}
	self := m.absPath()
	if self == "" || filepath.Base(self) == "__init__.py" {
		return false
	}
	if whole, ok := m.project.(WholeRepository); !ok || !whole.CoversRepository(self) {
		return false // a checked subfolder: its importers may lie outside
	}
	if wi, ok := m.project.(WordIndex); def.Type == "class_definition" && (!ok || len(wi.ModulesSpelling("exec(", "import_module(", "__import__(")) > 0) {
		return false // model classes imported by a name built at run time (SELFRec's exec of "from model.graph.MF import MF")
	}
	src := m.File.Src.Bytes
	for _, s := range []string{"__all__", "globals()", "Fire("} {
		if bytes.Contains(src, []byte(s)) {
			return false
		}
	}
	if namedByString(m, name) {
		return false
	}
	for _, id := range m.File.Identifiers(name) {
		if def.Contains(id) || id.Field == "attribute" || id.Field == "name" && id.Parent != nil && id.Parent.Type == "keyword_argument" {
			continue
		}
		if caller := moduleLevelFunction(id); caller != nil && !visiting[caller] {
			visiting[def] = true
			dead := m.neverCalled(caller, visiting)
			delete(visiting, def)
			if dead {
				continue // used only by a function nothing calls
			}
		}
		return false
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	distributed := m.project.(WholeRepository).Distributed(self)
	return !importedAndUsed(ps, self, name, word, !distributed)
}

// moduleName is the name a module at path is imported by: its file's, or
// its package's for an __init__.py.
func moduleName(path string) string {
	if filepath.Base(path) == "__init__.py" {
		return filepath.Base(filepath.Dir(path))
	}
	return strings.TrimSuffix(filepath.Base(path), ".py")
}

// importedAndUsed reports a module importing name from the module at
// path that uses the word outside its imports (or reaches the module by
// computed names). A package's __init__.py that imports it counts as a
// use, unless throughInit: then the modules importing name from that
// package are asked instead (`from .train_utils import *` in
// trainer/__init__.py re-exports train() to no one in an application
// repository: blind sample S39D's COVIDNet).
func importedAndUsed(ps ProjectSources, path, name string, word *regexp.Regexp, throughInit bool) bool {
	for _, imp := range ps.Importers(path, name) {
		src := ps.Source(imp)
		if src == nil || dynamicAccessTo(src, moduleName(path)) {
			return true
		}
		if filepath.Base(imp) == "__init__.py" {
			// (Re-exported under another name, `from .train_utils import
			// train as run_training`: callers use the alias, counted as a
			// use here.)
			renamed := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s+as\s+\w`).Match(src)
			if !throughInit || renamed || filepath.Dir(imp) != filepath.Dir(path) || usedOutsideImports(blankCommentsAndStrings(src), word) || importedAndUsed(ps, imp, name, word, false) {
				return true
			}
			continue
		}
		if usedOutsideImports(blankCommentsAndStrings(src), word) {
			return true
		}
	}
	return false
}

// plainDecorators reports a decorated definition whose decorators only
// change how it runs (torch's grad modes, functools' caches and wrappers),
// none of which registers it with something that could call it (a web
// route, a CLI command, a model registry).
func plainDecorators(dd *Node) bool {
	for _, c := range dd.Children {
		if c.Type != "decorator" {
			continue
		}
		text := strings.TrimPrefix(c.Text(), "@")
		if i := strings.IndexByte(text, '('); i >= 0 {
			text = text[:i]
		}
		switch strings.TrimSpace(text) {
		case "torch.no_grad", "torch.inference_mode", "torch.enable_grad", "no_grad", "inference_mode",
			"functools.lru_cache", "lru_cache", "functools.cache", "cache", "functools.wraps":
		default:
			return false
		}
	}
	return true
}

// namedByString reports a string literal spelling name that may reach it
// at run time: an argument of getattr, hasattr or setattr (`getattr(self,
// "train")`). The same word as a dictionary key, a comparison or a list of
// phases (`for phase in ["train", "val"]`) names nothing (blind sample
// S37N's defect classifier, whose uncalled train() hid behind its phases).
func namedByString(m *Model, name string) bool {
	quoted := []byte(name)
	if !bytes.Contains(m.File.Src.Bytes, quoted) {
		return false
	}
	for _, s := range m.File.OfType("string") {
		if !strings.Contains(s.Text(), name) || s.Parent == nil || s.Parent.Type != "argument_list" || s.Parent.Parent == nil {
			continue
		}
		t := strings.Trim(s.Text(), `"'`)
		if t != name {
			continue
		}
		switch m.CalleeName(s.Parent.Parent) {
		case "getattr", "hasattr", "setattr", "delattr":
			return true
		}
	}
	return false
}

// moduleCalls are the nn.Module methods a subclass may override that
// torch itself, or code written against any module, calls: a subclass's
// method of such a name is not dead for want of callers in the project.
var moduleCalls = func() map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Fields(`forward extra_repr reset_parameters train eval state_dict load_state_dict
		_load_from_state_dict _save_to_state_dict parameters named_parameters buffers named_buffers children
		named_children modules named_modules apply to cuda cpu half float double type zero_grad requires_grad_
		register_buffer register_parameter add_module get_submodule _apply _get_name`) {
		out[n] = true
	}
	return out
}()

// NeverCalledMethod reports a method of a module-level class that nothing
// in the project calls: its name is spelled nowhere in its file outside
// its own definition (no `self.name(...)`, no string) and in no other
// module of the project (blind sample S35F's CTRNext, whose
// Trainer.inference() is called by nothing). False for dunders and
// decorated methods, for a class with any base (a library or framework
// may call what it overrides: Lightning's training_step, nn.Module's
// reset_parameters), for files that reach attributes by computed names
// (getattr), and where the project's modules are not all known (a
// checked subfolder).
func (m *Model) NeverCalledMethod(def *Node) bool {
	if def == nil || def.Type != "function_definition" || def.Parent == nil || def.Parent.Type != "block" {
		return false
	}
	cls := def.Parent.Parent
	if cls == nil || cls.Type != "class_definition" || cls.Parent == nil || cls.Parent.Type != "module" {
		return false
	}
	name := def.ChildByField("name").Text()
	if strings.HasPrefix(name, "__") {
		return false
	}
	if sc := cls.ChildByField("superclasses"); sc != nil {
		for _, base := range sc.NamedChildren() {
			switch q := m.QualifiedName(base); {
			case base.Text() == "object":
			case (q == "torch.nn.Module" || q == "torch.nn.modules.module.Module") && !moduleCalls[name]:
				// nn.Module calls forward and its hooks, nothing else a
				// subclass defines (blind sample S37AD's LSTM with an
				// init_hidden nothing calls).
			default:
				return false
			}
		}
	}
	wi, ok := m.project.(WordIndex)
	if !ok {
		return false
	}
	self := m.absPath()
	if whole, ok := m.project.(WholeRepository); self == "" || !ok || !whole.CoversRepository(self) {
		return false
	}
	src := m.File.Src.Bytes
	for _, s := range []string{`"` + name + `"`, `'` + name + `'`, "getattr(", "__dict__"} {
		if bytes.Contains(src, []byte(s)) {
			return false
		}
	}
	for _, id := range m.File.Identifiers(name) {
		if !def.Contains(id) {
			return false
		}
	}
	for _, path := range wi.ModulesSpelling(name) {
		if path != self {
			return false
		}
	}
	return true
}

// moduleLevelFunction returns the module-level function definition
// around n, or nil when n is at module level or in a class.
func moduleLevelFunction(n *Node) *Node {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Parent != nil && a.Parent.Type == "module" {
			if a.Type == "function_definition" {
				return a
			}
			if a.Type == "decorated_definition" {
				if d := a.ChildByField("definition"); d != nil && d.Type == "function_definition" {
					return d
				}
			}
			return nil
		}
	}
	return nil
}

// blankCommentsAndStrings returns a copy of Python source src with its
// comments and the contents of its string literals (f-strings excepted:
// their fields are code) replaced by spaces, newlines kept: a docstring,
// a wandb project name or a comment that spells a class's name does not
// use the class (blind sample S26J's Raindrop, whose script names the
// paper's model in its docstring and builds only Raindrop_v2).
func blankCommentsAndStrings(src []byte) []byte {
	out := bytes.Clone(src)
	blank := func(from, to int) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '\'' || c == '"':
			fstring := false
			for k := i - 1; k >= 0 && k >= i-3 && isStringPrefix(src[k]); k-- {
				if src[k] == 'f' || src[k] == 'F' {
					fstring = true
				}
			}
			quote := []byte{c}
			if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
				quote = []byte{c, c, c}
			}
			j := i + len(quote)
			for j < len(src) && !bytes.HasPrefix(src[j:], quote) {
				if src[j] == '\\' {
					j++
				} else if len(quote) == 1 && src[j] == '\n' {
					break // an unterminated one-line string ends at the line
				}
				j++
			}
			end := min(j+len(quote), len(src))
			if !fstring {
				blank(i+len(quote), j)
			}
			i = end
		default:
			i++
		}
	}
	return out
}

// isStringPrefix reports a letter of a string literal's prefix (r, b, u,
// f, in either case).
func isStringPrefix(c byte) bool {
	switch c {
	case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
		return true
	}
	return false
}

// dynamicAccess matches code that reaches a module's names by a string
// computed at run time (`getattr(models, args.arch)`, `models.__dict__[
// name]`, `eval(...)`, `vars()`): any definition of an imported module
// may run. (`vars(args)` reads an object's attributes, not a module's.)
// The builtins only: a method that shares the name (`model.eval()`, in
// nearly every training script) is no such access.
var dynamicAccess = regexp.MustCompile(`(?m)(?:^|[^.\w])(?:getattr\(\s*(\w*)|eval\(|globals\(\)|vars\(\))|(\w*)\.__dict__`)

// dynamicAccessTo reports code in src that may reach a name of module
// mod by a string: eval, globals() or vars(), or getattr or __dict__ on
// mod itself (or the name it is imported as). A getattr on another module
// (`getattr(models, args.model)` beside `import utils`) reaches none of
// mod's names (blind sample S26J's BRITS, whose unused zero_var kept its
// finding).
func dynamicAccessTo(src []byte, mod string) bool {
	for _, m := range dynamicAccess.FindAllSubmatch(src, -1) {
		target := string(m[1])
		if target == "" {
			target = string(m[2])
		}
		if target == "" || target == mod || importedAsAlias(src, mod, target) {
			return true
		}
	}
	return false
}

// importedAsAlias reports src importing module mod under the name alias
// (`import utils as U`, `from pkg import utils as U`).
func importedAsAlias(src []byte, mod, alias string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(mod) + `\s+as\s+` + regexp.QuoteMeta(alias) + `\b`).Match(src)
}

// usedOutsideImports reports src spelling word on a line that is not
// part of an import statement (a parenthesized import's continuation
// lines included), other than as a library's attribute (torch.spmm is
// not the project's spmm).
func usedOutsideImports(src []byte, word *regexp.Regexp) bool {
	return usedOutsideImportsAs(src, word, 0)
}

// importedAs matches ` as alias` right after an imported name.
var importedAs = regexp.MustCompile(`^\s+as\s+(\w+)`)

// usedOutsideImportsAs is usedOutsideImports that also follows an import
// under another name (`from util.misc import NativeScalerWithGradNormCount
// as NativeScaler`, then `NativeScaler()`), depth aliases deep.
func usedOutsideImportsAs(src []byte, word *regexp.Regexp, depth int) bool {
	inImport := false
	var aliases []string
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimSpace(line)
		starts := bytes.HasPrefix(t, []byte("import ")) || bytes.HasPrefix(t, []byte("from ")) && bytes.Contains(t, []byte(" import "))
		if inImport || starts {
			if starts {
				inImport = bytes.Contains(t, []byte("(")) && !bytes.Contains(t, []byte(")"))
			} else if bytes.Contains(t, []byte(")")) {
				inImport = false
			}
			for _, at := range word.FindAllIndex(line, -1) {
				if m := importedAs.FindSubmatch(line[at[1]:]); m != nil {
					aliases = append(aliases, string(m[1]))
				}
			}
			if before, _, _ := bytes.Cut(t, []byte("#")); !bytes.Contains(before, []byte(";")) {
				continue // (a `;` may put a use on the import's line)
			}
		}
		for _, at := range word.FindAllIndex(line, -1) {
			if !libraryAttribute.Match(line[:at[0]]) {
				return true
			}
		}
	}
	for _, a := range aliases {
		if depth < 2 && usedOutsideImportsAs(src, regexp.MustCompile(`\b`+regexp.QuoteMeta(a)+`\b`), depth+1) {
			return true
		}
	}
	return false
}

// libraryAttribute matches text ending in a library module's attribute
// access (`torch.`, `np.`, `F.`): the word after it is the library's
// function (torch.spmm), not the project's of the same name.
var libraryAttribute = regexp.MustCompile(`(?:^|[^\w.])(?:torch|np|numpy|F|nn|math|scipy|sparse|cp|cupy|tf|jnp|jax)\.$`)

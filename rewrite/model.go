package rewrite

import (
	"slices"
	"strings"
)

// ScopeKind tells what kind of Python scope a Scope is.
type ScopeKind int

// Python's scope kinds.
const (
	ModuleScope ScopeKind = iota
	ClassScope
	FunctionScope
	LambdaScope
	ComprehensionScope
)

// Scope is a Python namespace: the module, a class body, a function, a
// lambda or a comprehension.
type Scope struct {
	Kind     ScopeKind
	Node     *Node // the module, class_definition, function_definition, ...
	Parent   *Scope
	Bindings map[string][]*Binding
	global   map[string]bool // names declared global or nonlocal here (nil: none)
}

// BindingKind tells how a name got bound.
type BindingKind int

// The ways a Python name is bound.
const (
	ImportBinding BindingKind = iota
	AssignBinding
	AugAssignBinding
	DefBinding
	ClassBinding
	ParamBinding
	LoopBinding
	WithBinding
	OtherBinding
)

// Binding is one place a name is bound.
type Binding struct {
	Name  string
	Kind  BindingKind
	Ident *Node  // the identifier being bound
	Stmt  *Node  // the statement (assignment, import, def, for ...)
	Scope *Scope // the scope that owns the name
	// Value is the right-hand side when the binding is a plain `name = value`.
	Value *Node
	// Qualified is the imported dotted path for import bindings
	// ("xgboost.DMatrix" for `from xgboost import DMatrix as DM`), empty for
	// relative imports and every other kind.
	Qualified string
	// Relative is the module path and name of a relative import binding
	// (".model.Net" for `from .model import Net`), empty otherwise.
	Relative string
	// Uses are the identifiers that read this binding.
	Uses []*Node
	// useList numbers, while the model is built, the binding lists whose
	// first binding this is (0: none), to collect their Uses.
	useList int32
}

// Model is the semantic model of a file: scopes, bindings and their uses.
type Model struct {
	File   *File
	Module *Scope
	// StarImport is true when the module does `from x import *`: unbound
	// names are then unknown rather than builtins.
	StarImport bool
	// wholeBatches: 0 not asked yet, 1 no, 2 yes: the project spells a
	// DataLoader batch of the whole dataset (singleBatchLoader).
	wholeBatches int8
	// itemTargets are the texts of the containers item assignments write
	// (`self.loaders` of `self.loaders['train'] = ...`), built on first
	// use by ItemValues and ItemReads.
	itemTargets map[string]bool
	scopes      map[*Node]*Scope
	// reads are the identifiers that read a variable, with the bindings
	// each resolves to; readAt maps a node's slab index to 1 + its index in
	// reads (0: not a read), strayReads does so for nodes outside the slab.
	reads      []read
	readAt     []int32
	strayReads map[*Node]int
	loopInfo   map[*Node]*LoopInfo
	memo       map[any]any      // Memo's answers
	defs       map[string]*Node // module-level functions by name, for call-through
	// qnames caches QualifiedName: qnameAt maps a node's slab index to 1 +
	// the index of its name in qnames (0: not computed yet). Rules ask for
	// the same callees again and again; the pointer-free index is cheap to
	// allocate even for large files.
	qnames  []string
	qnameAt []int32
	// trainingLoops caches TrainingLoops (nil: not computed yet).
	trainingLoops []*Node
	// inLoops has a bit per slab node, set inside loops, for
	// EnclosingLoops (nil: not computed yet).
	inLoops []uint64
	// imported are the qualified names of the module scope's import
	// bindings, collected by the binder.
	imported []string
	// moduleImports are the module scope's import bindings with a
	// qualified name, in source order (LocalName asks them).
	moduleImports []*Binding
	// usesCUDA caches UsesCUDA: 0 unknown, 1 no, 2 yes.
	usesCUDA int8
	// configDevices are projectConfigDevice's answers by attribute name.
	configDevices map[string]DeviceKind
	// callsByName indexes the calls of plain names by the last part of
	// their qualified names (nil: not built yet).
	callsByName  map[string][]*Node
	callsIndexed bool
	// slab is the memory the model reuses (see File.Release).
	slab *slab
	// loopBodies caches LoopBody: windows of loopNodes.
	loopBodies map[*Node][]*Node
	loopNodes  []*Node
	// callSites caches CallSites: the calls of each function of the file.
	callSites map[*Node][]*Node
	// classifier answers IsModule, IsOptimizer, IsDataLoader (nil: built in).
	classifier Classifier
	// project resolves names imported from sibling modules (nil: none).
	project ProjectIndex
	// foreign are the project modules this model parsed to follow values
	// across modules (crossmodule.go), by path; foreignCalls caches
	// ForeignCallSites.
	foreign *ForeignModels
	// starFrom are the modules the module scope star-imports, in order
	// ("config", ".config").
	starFrom     []string
	foreignCalls map[*Node][]ForeignCall
	// methodCalls caches ForeignMethodCalls by method name; importers
	// caches ImporterSources (read once though several version checks ask).
	methodCalls map[string]methodCallsResult
	importers   *[][]byte
	// abs caches absPath (nil: not resolved yet).
	abs *string
	// readsCache caches Reads: rules ask for the reads of one accumulator
	// in one loop once per finding.
	readsCache map[readsKey][]*Node
	// uncastWrite caches UncastWriteInForward (uncastWriteDone: computed).
	uncastWrite     *Node
	uncastWriteDone bool
	// linalg caches LinalgInForward (linalgDone: computed).
	linalg     *Node
	linalgDone bool
	// projectImports caches the project modules ImportsProjectModuleDeep
	// reaches, by depth.
	projectImports map[int][]*ProjectDef
	// spelled caches whether this file's text contains a word, for
	// ProjectSpells: rules ask the same words once per training step, and
	// each answer is a scan of the whole file.
	spelled map[string]bool
}

// readsKey identifies a Reads query.
type readsKey struct {
	scope  *Scope
	name   string
	region *Node
}

// Model returns the file's semantic model, building it on first use.
func (f *File) Model() *Model {
	if f.model == nil {
		f.model = buildModel(f)
	}
	return f.model
}

func buildModel(f *File) *Model {
	sl := f.scratch()
	m := sl.newModel(f)
	m.Module = m.newScope(ModuleScope, f.Root, nil)
	if cap(sl.arena) < sl.arenaWanted {
		// The last file this slab served needed more bindings: size the
		// arena for that many (an edited document needs about as many).
		sl.arena = make([]Binding, sl.arenaWanted+sl.arenaWanted/8)
		sl.lists = make([]*Binding, len(sl.arena))
	}
	b := &binder{m: m, loads: slices.Grow(sl.loads[:0], len(f.OfType("identifier"))), bindings: sl.arena[:cap(sl.arena)], lists: sl.lists}
	if !f.tooDeep { // a file too deep to walk has an empty model
		b.walk(f.Root, m.Module)
	}
	defer func() {
		clear(b.loads) // scratch: must not keep nodes alive in the slab
		sl.loads = b.loads[:0]
	}()
	sl.arenaUsed, sl.arenaWanted = min(b.made, cap(sl.arena)), b.made
	sl.reads = slices.Grow(sl.reads[:0], len(b.loads))[:len(b.loads)]
	m.reads = sl.reads
	sl.readAt = zeroInts(sl.readAt, len(f.nodes))
	m.readAt = sl.readAt
	// A lookup answers with all bindings of a name in one scope, and each
	// of them is credited with the use: count the uses per binding list
	// (numbered through its first binding's useList), then hand each list
	// its window of one shared array, so a name bound n times and read n
	// times costs n, not n², and all the Uses cost one allocation.
	lists, counts := sl.useLists[:0], sl.useCounts[:0]
	defer func() { sl.useLists, sl.useCounts = lists, counts }()
	sl.useWhich = zeroInts(sl.useWhich, len(b.loads))
	which := sl.useWhich // per read: 1 + its list, 0: none
	for i, r := range b.loads {
		bs := m.lookup(r.scope, r.ident.Text())
		m.reads[i] = read{r.ident, bs}
		if f.inSlab(r.ident) {
			m.readAt[r.ident.idx] = int32(i + 1)
		} else {
			if m.strayReads == nil {
				m.strayReads = map[*Node]int{}
			}
			m.strayReads[r.ident] = i
		}
		if len(bs) == 0 {
			continue
		}
		if bs[0].useList == 0 {
			lists, counts = append(lists, bs), append(counts, 0)
			bs[0].useList = int32(len(lists))
		}
		k := bs[0].useList
		counts[k-1]++
		which[i] = k
	}
	sl.useAll, sl.useWindows = carve(sl.useAll, sl.useWindows, counts)
	windows := sl.useWindows
	for i, k := range which {
		if k > 0 {
			windows[k-1] = append(windows[k-1], b.loads[i].ident)
		}
	}
	for k, bs := range lists {
		u := windows[k] // full: an append by a caller copies
		for _, bd := range bs {
			bd.Uses = u
		}
	}
	for _, bd := range m.Module.Bindings {
		for _, d := range bd {
			if d.Kind == DefBinding {
				m.defs[d.Name] = d.Stmt
			}
		}
	}
	return m
}

// read is an identifier that reads a variable and the bindings it
// resolves to.
type read struct {
	ident    *Node
	bindings []*Binding
}

// readOf returns the index in m.reads of the read at ident, or -1 when
// ident reads no variable.
func (m *Model) readOf(ident *Node) int {
	if m.File.inSlab(ident) {
		return int(m.readAt[ident.idx]) - 1
	}
	if k, ok := m.strayReads[ident]; ok {
		return k
	}
	return -1
}

func (m *Model) newScope(k ScopeKind, n *Node, parent *Scope) *Scope {
	s := m.slab.newScope()
	s.Kind, s.Node, s.Parent = k, n, parent
	m.scopes[n] = s
	return s
}

// lookup follows Python's LEGB rule (class bodies are not visible from the
// scopes nested in them).
func (m *Model) lookup(s *Scope, name string) []*Binding {
	first := true
	for ; s != nil; s = s.Parent {
		if s.Kind == ClassScope && !first {
			continue
		}
		first = false
		if s.global[name] {
			return m.Module.Bindings[name]
		}
		if bs, ok := s.Bindings[name]; ok {
			return bs
		}
	}
	return nil
}

// ScopeOf returns the innermost scope containing n.
func (m *Model) ScopeOf(n *Node) *Scope {
	for p := n; p != nil; p = p.Parent {
		if !opensScope(p.Type) {
			continue
		}
		if s, ok := m.scopes[p]; ok {
			// A def's name, decorators and defaults live in the outer scope;
			// only its parameters and body are inside.
			if p != n && p.Is("function_definition", "class_definition") && !inBody(p, n) {
				continue
			}
			return s
		}
	}
	return m.Module
}

// opensScope reports whether nodes of type typ may open a scope (the
// binder creates scopes only for these).
func opensScope(typ string) bool {
	switch typ {
	case "module", "function_definition", "class_definition", "lambda",
		"list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		return true
	}
	return false
}

func inBody(def, n *Node) bool {
	for _, f := range []string{"body", "parameters"} {
		if c := def.ChildByField(f); c != nil && c.Contains(n) {
			return true
		}
	}
	return false
}

// Bindings returns the bindings a name read at ident resolves to.
func (m *Model) Bindings(ident *Node) []*Binding {
	if k := m.readOf(ident); k >= 0 {
		return m.reads[k].bindings
	}
	if ident.Type != "identifier" {
		return nil
	}
	return m.lookup(m.ScopeOf(ident), ident.Text())
}

// Binding returns the single binding ident resolves to, or nil when it has
// none or several (the rule then does not know what the name holds).
func (m *Model) Binding(ident *Node) *Binding {
	bs := m.Bindings(ident)
	if len(bs) != 1 {
		return nil
	}
	return bs[0]
}

// QualifiedName resolves an identifier or attribute chain through imports:
// `xgb.DMatrix` with `import xgboost as xgb` is "xgboost.DMatrix". Builtins
// resolve to their bare name ("print"). It returns "" when the name is bound
// to anything but an import, bound more than once, or hidden by a star
// import: rules stay silent on "".
func (m *Model) QualifiedName(n *Node) string {
	i := int(n.idx)
	if n.file != m.File || i >= len(m.File.nodes) || &m.File.nodes[i] != n {
		return m.qualifiedName(n)
	}
	if m.qnameAt == nil {
		if sl := m.File.slab; sl != nil {
			sl.qnameAt = zeroInts(sl.qnameAt, len(m.File.nodes))
			m.qnameAt, m.qnames = sl.qnameAt, sl.qnames[:0]
		} else {
			m.qnameAt = make([]int32, len(m.File.nodes))
		}
	}
	if k := m.qnameAt[i]; k > 0 {
		return m.qnames[k-1]
	}
	q := m.qualifiedName(n)
	m.qnames = append(m.qnames, q)
	m.qnameAt[i] = int32(len(m.qnames))
	return q
}

// lastTopLevelImport resolves a name read inside a function that the
// module imports more than once, each time by an import statement of its
// own at the top level (`import tqdm` then `from tqdm import tqdm`): the
// function runs after the module's imports, so the last one is what it
// reads. "" for any other binding or a read at the top level.
func (m *Model) lastTopLevelImport(read *Node, bs []*Binding) string {
	if m.ScopeOf(read) == m.Module {
		return ""
	}
	var last *Binding
	for _, b := range bs {
		if b.Kind != ImportBinding || b.Qualified == "" || b.Scope != m.Module || b.Stmt == nil || b.Stmt.Parent == nil || b.Stmt.Parent.Type != "module" {
			return ""
		}
		if last == nil || b.Stmt.Start > last.Stmt.Start {
			last = b
		}
	}
	if last == nil {
		return ""
	}
	return last.Qualified
}

func (m *Model) qualifiedName(n *Node) string {
	switch n.Type {
	case "identifier":
		bs := m.Bindings(n)
		if len(bs) == 0 {
			if m.StarImport && !commonBuiltins[n.Text()] {
				return m.starExternal(n.Text()) // torch through `from utils import *`
			}
			return n.Text()
		}
		q := ""
		for _, b := range bs {
			if b.Kind != ImportBinding || b.Qualified == "" || (q != "" && q != b.Qualified) {
				return m.lastTopLevelImport(n, bs)
			}
			q = b.Qualified
		}
		return q
	case "attribute":
		obj, attr := n.ChildByField("object"), n.ChildByField("attribute")
		if obj == nil || attr == nil {
			return ""
		}
		q := m.QualifiedName(obj)
		if q == "" {
			return ""
		}
		if text := n.Text(); len(text) == len(q)+1+len(attr.Text()) && text[:len(q)] == q && text[len(q)] == '.' {
			// `torch.cuda` spelled as it resolves: the source text is the
			// name, and reusing it spares an allocation per attribute.
			return text
		}
		return q + "." + attr.Text()
	case "parenthesized_expression":
		if c := n.NamedChildren(); len(c) == 1 {
			return m.QualifiedName(c[0])
		}
	}
	return ""
}

// CalleeName is QualifiedName of a call's function, "" for anything else.
func (m *Model) CalleeName(call *Node) string {
	if call == nil || call.Type != "call" {
		return ""
	}
	return m.QualifiedName(call.ChildByField("function"))
}

// Imports reports whether the module imports the top-level package pkg.
func (m *Model) Imports(pkg string) bool {
	in := func(qs []string) bool {
		for _, q := range qs {
			if q == pkg || len(q) > len(pkg) && q[len(pkg)] == '.' && strings.HasPrefix(q, pkg) {
				return true
			}
		}
		return false
	}
	if in(m.imported) {
		return true
	}
	// `from utils import *` of a project module that imports pkg.
	if len(m.starFrom) > 0 && m.project != nil {
		for _, mod := range m.starFrom {
			if d := m.project.Def(m.File.Src.Path, mod, ModuleKey); d != nil && in(d.Externals) {
				return true
			}
		}
	}
	return false
}

// ValueOf follows a name to the value it was assigned, when the name is
// assigned exactly once in its scope by a plain `name = value`.
func (m *Model) ValueOf(n *Node) *Node {
	if n.Type != "identifier" {
		return nil
	}
	b := m.Binding(n)
	if b == nil || b.Kind != AssignBinding {
		return nil
	}
	return b.Value
}

// FunctionDef returns the function of this file a call calls (CalledDef):
// a name bound by def, `self.method(...)` in its class, or a class's
// __init__ for an instantiation.
func (m *Model) FunctionDef(call *Node) *Node { return m.CalledDef(call) }

// commonBuiltins are builtins that a star import is taken not to shadow
// (a module exporting its own `enumerate` or `len` is vanishingly rare;
// treating every name as unknown after `from models import *` left whole
// training scripts unread).
var commonBuiltins = map[string]bool{"enumerate": true, "zip": true, "len": true, "range": true, "print": true,
	"iter": true, "next": true, "isinstance": true, "float": true, "int": true, "str": true, "list": true,
	"dict": true, "tuple": true, "sum": true, "min": true, "max": true, "sorted": true, "super": true}

// Memo returns compute's answer for key, computing it once per model: a
// rule's derived fact about a node (whether a loop holds another hot
// loop), asked once per finding in a loop of thousands of steps, would
// otherwise walk the same body again each time. Keys are comparable
// values naming the question and its node (a struct of both).
func (m *Model) Memo(key any, compute func() any) any {
	if v, ok := m.memo[key]; ok {
		return v
	}
	v := compute()
	if m.memo == nil {
		m.memo = map[any]any{}
	}
	m.memo[key] = v
	return v
}

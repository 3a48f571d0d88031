package rewrite

import (
	"slices"
	"strings"
)

// The project index: what the sibling modules of a file define at top
// level, so that `from model import Net` tells the rules that Net is an
// nn.Module subclass, and `from data import make_loader` that make_loader
// returns a DataLoader. The engine defines the questions (ProjectIndex)
// and how one module is summarised (Summarize); rewrite/workspace keeps
// the index of a run or an editor workspace, reading and summarising each
// module once, on first use.

// ProjectDef is a top-level class or function of a project module.
type ProjectDef struct {
	Path  string // the module's file
	Name  string
	Class bool
	// Bases are, for a class, the qualified names of its base classes as
	// its module imports them ("torch.nn.Module"), through the module's own
	// classes (a subclass of a local subclass of nn.Module lists
	// "torch.nn.Module").
	Bases []string
	// Returns are, for a function, the qualified names of the callables
	// whose results it returns ("torch.utils.data.DataLoader" for
	// `return DataLoader(ds)`, also through `return DataLoader(ds).x()`
	// chains and names assigned before the return); a class of the module
	// returned as an instance adds its Bases prefixed with "class:".
	Returns []string
	// Trains: the function (or a method of the class) calls `.backward()`
	// or `.zero_grad()`: calling it trains a model.
	Trains bool
	// Params are a function's parameter names, in order; Iterated those
	// that a for loop of its body iterates (`for x, y in loader`, also
	// through enumerate(...) or a logger's wrapper).
	Params   []string
	Iterated []string
	// For a class, Params are its __init__'s (without self) and Iterated
	// those it keeps on self (`self.loader = loader`) that a method's for
	// loop iterates; EpochIterated those iterated once per pass of an
	// outer loop (the loop is nested in one, or its method is called from
	// a loop of another method). For a function, Iterated and
	// EpochIterated also count the parameters it hands to another
	// function of the module that iterates them (`fit` calling
	// `train_epoch(train_loader, ...)` in its epoch loop).
	EpochIterated []string
	// Calls are, for a class, the qualified names of the callables its
	// body calls (torch.nn.Conv2d for a convolutional model), deduplicated.
	Calls []string
	// SpatialConv: the class builds a convolution whose kernel is not a
	// literal 1 (PointwiseConv): one with algorithms for cuDNN to choose.
	SpatialConv bool
	// Var: a module-level name assigned once (a constant), not a class or
	// function; Device is the device its value names (`DEVICE =
	// torch.device("cuda" if torch.cuda.is_available() else "cpu")`),
	// DeviceUnknown when it names none. Only constants naming a device
	// are summarised.
	Var    bool
	Device DeviceKind
	// StepMethods are, for a class, the methods that run one training
	// step: their body calls .backward() outside any loop of theirs, or
	// calls such a method of the class (`self.backward_G()`) outside one
	// (a Pix2PixModel's train_step, which train.py calls on every batch).
	StepMethods []string
	// TrainingMethods are, for a class, the methods that train at all:
	// their body calls .backward() (in a loop or not), or calls such a
	// method of the class (`self.loop_train(...)`).
	TrainingMethods []string
	// MethodReturns are, for a class, its methods' Returns by method name
	// (`ModelSelector.get_model` returning timm.create_model(...)).
	MethodReturns map[string][]string
	// UsesCUDA: the definition's module targets CUDA (Model.UsesCUDA);
	// the module's own entry (key ModuleKey) has it too.
	UsesCUDA bool
	// From marks a name the module imports from another module rather than
	// defines (`from .unet_model import UNet` in a package __init__): the
	// module and name as that import spells them (".unet_model.UNet").
	// The project index resolves such entries to the definition.
	From string
	// Star are, on the module's own entry, the modules it star-imports.
	Star []string
	// Externals are, on the module's own entry, the qualified names of
	// every import of the module (what a star import of it brings).
	Externals []string
	// External is, for a name the module imports from outside the project
	// (`import torch`, `import torch.nn as nn`, `from torch.optim import
	// Adam`), the qualified name it stands for ("torch", "torch.nn",
	// "torch.optim.Adam"): a module that star-imports this one
	// (`from utils import *`) spells torch through it.
	External string
	// Deterministic: on the module's own entry, the module asks for
	// deterministic kernels (Model.RequestsDeterminism).
	Deterministic bool
	// Autocast: on the module's own entry, the module spells autocast
	// (mixed precision is chosen there).
	Autocast bool
	// HalfWeights: on the module's own entry, the module casts networks'
	// weights to fp16 (HalfWeights).
	HalfWeights bool
	// Warps: on the module's own entry, the module samples images at
	// coordinates it computes with matrix products (Warps).
	Warps bool
	// DoubleBackward: on the module's own entry, the module takes
	// gradients with create_graph (a gradient penalty differentiates
	// through a backward pass).
	DoubleBackward bool
	// ForceMatching: on the module's own entry, the module differentiates
	// an energy by atom positions (DifferentiatesCoordinates).
	ForceMatching bool
	// SparseMatmul: on the module's own entry, the module multiplies by a
	// sparse matrix (torch.spmm, torch.sparse.mm): a GCN layer, whose
	// sparse kernels have no bf16.
	SparseMatmul bool
	// AutogradFunction: on the module's own entry, the module defines a
	// torch.autograd.Function (a hand-written forward and backward).
	AutogradFunction bool
	// Upsamples: on the module's own entry, the module builds or calls a
	// layer that brings feature maps back up (Upsamples): a U-Net, a flow
	// or style decoder, whose outputs are per pixel.
	Upsamples bool
	// UncastWriteForward: on the module's own entry, a forward of the
	// module makes a write that autocast does not cast
	// (Model.UncastWriteInForward).
	UncastWriteForward bool
	// LinalgForward: on the module's own entry, the callee name of a
	// linear-algebra op that a forward of the module takes of an
	// activation and that raises in bf16 (Model.LinalgInForward), "" when
	// there is none.
	LinalgForward string
	// CustomKernels: on the module's own entry, the module imports
	// torch.utils.cpp_extension (it compiles CUDA kernels of its own).
	CustomKernels bool
	// Relatives are, on the module's own entry, the modules and names its
	// relative imports spell (".fused_act.FusedLeakyReLU").
	Relatives []string
	// SavesState: a function that calls `.state_dict()` or
	// `.load_state_dict()` (a checkpoint helper such as save_model).
	SavesState bool
}

// ModuleKey is the key of a module's own entry in its summary: no Python
// name can spell it.
const ModuleKey = "<module>"

// ProjectIndex resolves the names a file imports from its own project.
type ProjectIndex interface {
	// Def returns the definition name of module as imported by the file at
	// fromPath (module starts with "." for a relative import), or nil when
	// the module is not a file of the project or does not define name.
	Def(fromPath, module, name string) *ProjectDef
}

// SetProject gives the model the project index its imports resolve
// through (nil: none). Set it before asking the model anything.
func (m *Model) SetProject(p ProjectIndex) {
	if m.project != p {
		m.project = p
	}
}

// importedDef returns the project definition a name imported with
// `from <module> import <name>` stands for, or that `module.name` names
// after `import module` (`import engine`, then `engine.train_fn`), or nil.
func (m *Model) importedDef(ident *Node) *ProjectDef {
	if m.project == nil || ident == nil {
		return nil
	}
	if ident.Type == "attribute" {
		return m.moduleAttrDef(ident)
	}
	if ident.Type != "identifier" {
		return nil
	}
	if len(m.starFrom) > 0 && len(m.Bindings(ident)) == 0 {
		return m.starDef(ident.Text())
	}
	b := m.Binding(ident)
	if b == nil || b.Kind != ImportBinding || b.Stmt == nil || b.Stmt.Type != "import_from_statement" {
		return nil
	}
	q := b.Qualified
	if b.Relative != "" {
		q = b.Relative
	}
	dot := strings.LastIndexByte(q, '.')
	if dot <= 0 && !strings.HasPrefix(q, ".") || dot < 0 {
		return nil
	}
	module, name := q[:dot], q[dot+1:]
	if module == "" {
		module = "."
	}
	return m.project.Def(m.File.Src.Path, module, name)
}

// moduleAttrDef is importedDef for `module.name` (also `pkg.module.name`)
// where module is a project module brought in by `import module` or
// `from pkg import module`.
func (m *Model) moduleAttrDef(attr *Node) *ProjectDef {
	root := RootIdent(attr)
	if m.project == nil || root == nil || root == attr {
		return nil
	}
	// `import pcl.loader` and `import pcl.builder` both bind `pcl`: every
	// binding must be such an import of the same package.
	bs := m.Bindings(root)
	if len(bs) == 0 {
		return nil
	}
	if b := bs[0]; len(bs) == 1 && b.Kind == ImportBinding && b.Stmt != nil && b.Stmt.Type == "import_from_statement" &&
		b.Relative != "" && attr.ChildByField("object") == root {
		// `from . import networks` then `networks.define_G(...)`: a
		// sibling module of the package.
		return m.project.Def(m.File.Src.Path, b.Relative, attr.ChildByField("attribute").Text())
	}
	for _, b := range bs {
		// `from utils import h36motion3d as datasets` binds a module
		// too, when the project has one by that name (ProjectDefOf finds
		// none otherwise: a name utils/__init__.py defines).
		from := b.Stmt != nil && b.Stmt.Type == "import_from_statement" && b.Relative == ""
		if b.Kind != ImportBinding || b.Stmt == nil || b.Stmt.Type != "import_statement" && !from || b.Qualified == "" || b.Qualified != bs[0].Qualified {
			return nil
		}
	}
	q := m.QualifiedName(attr)
	if q == "" || !strings.HasPrefix(q, bs[0].Qualified+".") {
		return nil
	}
	return m.ProjectDefOf(m.File.Src.Path, q)
}

// starDef returns the definition of a name the module does not bind that
// one of its star imports of a project module (`from config import *`)
// defines: the last such import that defines it wins, as in Python.
func (m *Model) starDef(name string) *ProjectDef {
	if m.project == nil {
		return nil
	}
	for i := len(m.starFrom) - 1; i >= 0; i-- {
		if d := m.project.Def(m.File.Src.Path, m.starFrom[i], name); d != nil {
			if d.External != "" && d.From == "" || d.Name != name {
				return nil // an import of that module, not a definition
			}
			return d
		}
	}
	return nil
}

// starExternal returns the qualified name that a name this module does
// not bind stands for when a star import of a project module brings it
// from outside the project (`from utils import *` where utils does
// `import torch`): "torch"; "" otherwise.
func (m *Model) starExternal(name string) string {
	if m.project == nil {
		return ""
	}
	for i := len(m.starFrom) - 1; i >= 0; i-- {
		if d := m.project.Def(m.File.Src.Path, m.starFrom[i], name); d != nil {
			return d.External
		}
	}
	return ""
}

// starImportsCUDA reports a star import of a project module that targets
// CUDA (`from config import *` of a module that sets DEVICE to the GPU):
// its names, the device among them, are this module's.
func (m *Model) starImportsCUDA() bool {
	if m.project == nil {
		return false
	}
	return m.starChainCUDA(m.File.Src.Path, m.starFrom, 0)
}

// starChainCUDA follows star imports a few modules deep (train.py does
// `from data import *`, data.py `from conf import *`, conf.py sets the
// CUDA device).
func (m *Model) starChainCUDA(from string, mods []string, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, mod := range mods {
		d := m.project.Def(from, mod, ModuleKey)
		if d == nil {
			continue
		}
		if d.UsesCUDA || len(d.Star) > 0 && m.starChainCUDA(d.Path, d.Star, depth+1) {
			return true
		}
	}
	return false
}

// ProjectDefOf returns the project definition a qualified name that the
// module at fromPath imports stands for ("net.TinyLM" in factory.py after
// `from net import TinyLM`), or nil: summaries record what a sibling
// module's functions return by such names.
func (m *Model) ProjectDefOf(fromPath, qualified string) *ProjectDef {
	dot := strings.LastIndexByte(qualified, '.')
	if m.project == nil || dot <= 0 {
		return nil
	}
	return m.project.Def(fromPath, qualified[:dot], qualified[dot+1:])
}

// ImportedDef is importedDef for rules: the project definition an
// imported name stands for, or nil.
func (m *Model) ImportedDef(ident *Node) *ProjectDef { return m.importedDef(ident) }

// Summarize returns the top-level classes and functions of a module,
// keyed by name. It keeps no node: the file may be released afterwards.
func Summarize(f *File, path string) map[string]*ProjectDef {
	m := f.Model()
	out := map[string]*ProjectDef{ModuleKey: {Path: path, Name: ModuleKey, UsesCUDA: m.UsesCUDA(), Star: m.starFrom, Externals: slices.Clip(m.imported), Deterministic: m.RequestsDeterminism(),
		Autocast: callsAutocast(f), HalfWeights: HalfWeights(m), Warps: Warps(m), DoubleBackward: CreatesGraph(f), ForceMatching: DifferentiatesCoordinates(m), SparseMatmul: SparseMatmul(m), AutogradFunction: m.DefinesAutogradFunction(), Upsamples: m.Upsamples(), UncastWriteForward: m.UncastWriteInForward() != nil, LinalgForward: linalgName(m), CustomKernels: slices.ContainsFunc(m.imported, func(q string) bool {
			return strings.HasPrefix(q, "torch.utils.cpp_extension")
		}), Relatives: m.relativeImports()}}
	defs := map[string]*Node{} // the module's functions, by name
	for name, bs := range m.Module.Bindings {
		if len(bs) != 1 {
			continue
		}
		b := bs[0]
		switch b.Kind {
		case ImportBinding:
			if b.Stmt != nil && b.Stmt.Type == "import_from_statement" {
				from := b.Qualified
				if b.Relative != "" {
					from = b.Relative
				}
				if from != "" {
					out[name] = &ProjectDef{Path: path, Name: name, From: from, External: b.Qualified}
				}
			} else if b.Qualified != "" {
				out[name] = &ProjectDef{Path: path, Name: name, External: b.Qualified}
			}
		case ClassBinding:
			d := &ProjectDef{Path: path, Name: name, Class: true, Bases: m.classBases(b.Stmt, 0), Trains: trains(b.Stmt), Calls: m.callees(b.Stmt), SpatialConv: m.spatialConv(b.Stmt),
				MethodReturns: m.methodReturns(b.Stmt), StepMethods: classMethodsBackward(b.Stmt, true), TrainingMethods: classMethodsBackward(b.Stmt, false)}
			d.Params, d.Iterated, d.EpochIterated = m.classIterated(b.Stmt)
			out[name] = d
		case AssignBinding:
			if b.Value != nil {
				if k := m.DeviceOf(b.Value); k != DeviceUnknown {
					out[name] = &ProjectDef{Path: path, Name: name, Var: true, Device: k}
				}
			}
		case DefBinding:
			d := &ProjectDef{Path: path, Name: name, Trains: trains(b.Stmt), SavesState: savesState(b.Stmt)}
			d.Params, d.Iterated = m.iteratedParams(b.Stmt)
			d.EpochIterated = m.nestedIterated(b.Stmt, d.Params)
			d.Returns = m.returnsOf(b.Stmt)
			out[name] = d
			defs[name] = b.Stmt
		}
	}
	m.passedOnIterated(out, defs)
	// A class that builds another class of the module builds what that
	// one builds (a U-Net of DoubleConv blocks builds convolutions).
	for round := 0; round < 3; round++ {
		for _, d := range out {
			if !d.Class {
				continue
			}
			for _, c := range d.Calls {
				if inner := out[c]; inner != nil && inner.Class && inner != d {
					for _, q := range inner.Calls {
						if !slicesContains(d.Calls, q) {
							d.Calls = append(d.Calls, q)
						}
					}
				}
			}
		}
	}
	if out[ModuleKey].UsesCUDA {
		for _, d := range out {
			d.UsesCUDA = true
		}
	}
	return out
}

// SplitFrom splits a ProjectDef.From into the module to resolve from the
// defining file and the name ("." and "UNet" for ".UNet").
func SplitFrom(from string) (module, name string, ok bool) {
	dot := strings.LastIndexByte(from, '.')
	if dot < 0 || dot == len(from)-1 {
		return "", "", false
	}
	module, name = from[:dot], from[dot+1:]
	if module == "" {
		module = "."
	}
	return module, name, true
}

// classIterated returns a class's __init__ parameters (without self), those
// it keeps on self that a method's for loop iterates (directly or through
// enumerate()/tqdm(), also by a name assigned such a wrapper), and those
// of them iterated once per pass of an outer loop.
func (m *Model) classIterated(cls *Node) (params, iterated, epoch []string) {
	init := methodOf(cls, "__init__")
	if init == nil {
		return nil, nil, nil
	}
	all, _ := m.iteratedParams(init)
	if len(all) > 0 {
		params = all[1:]
	}
	kept := map[string]string{} // self attribute -> parameter
	for _, asg := range m.File.OfTypeIn(init, "assignment") {
		left, right := asg.ChildByField("left"), asg.ChildByField("right")
		if left == nil || right == nil || left.Type != "attribute" || right.Type != "identifier" || m.selfClass(left.ChildByField("object")) != cls {
			continue
		}
		if slicesContains(params, right.Text()) {
			kept[left.ChildByField("attribute").Text()] = right.Text()
		}
	}
	if len(kept) == 0 {
		return params, nil, nil
	}
	for _, loop := range m.File.OfTypeIn(cls, "for_statement") {
		right := loop.ChildByField("right")
		if right == nil {
			continue
		}
		src := right
		if right.Type == "identifier" {
			if v := m.ValueOf(right); v != nil {
				src = v
			}
		}
		attrs := m.File.OfTypeIn(src, "attribute")
		if src.Type == "attribute" {
			attrs = append([]*Node{src}, attrs...)
		}
		for _, attr := range attrs {
			param, ok := kept[attr.ChildByField("attribute").Text()]
			if !ok || m.selfClass(attr.ChildByField("object")) != cls || attr != src && attr.Parent != src && (attr.Parent == nil || attr.Parent.Type != "argument_list") {
				continue
			}
			if !slicesContains(iterated, param) {
				iterated = append(iterated, param)
			}
			if (len(m.EnclosingLoops(loop)) > 0 || m.calledFromLoop(loop)) && !slicesContains(epoch, param) {
				epoch = append(epoch, param)
			}
		}
	}
	return params, iterated, epoch
}

// calledFromLoop reports that the method n is in is called (as
// self.method()) inside a loop of its class.
func (m *Model) calledFromLoop(n *Node) bool {
	def := n.Ancestor("function_definition")
	if def == nil {
		return false
	}
	for _, site := range m.CallSites(def) {
		if len(m.EnclosingLoops(site)) > 0 {
			return true
		}
	}
	return false
}

// returnsOf names the callables whose results a function returns.
func (m *Model) returnsOf(def *Node) []string {
	var out []string
	for _, r := range ReturnValues(def) {
		for _, s := range m.Origins(r) {
			out = append(out, m.returnedCallees(s.Expr)...)
		}
	}
	return out
}

// methodReturns maps the methods of a class that return something known
// to what they return.
func (m *Model) methodReturns(cls *Node) map[string][]string {
	body := cls.ChildByField("body")
	if body == nil {
		return nil
	}
	var out map[string][]string
	for _, st := range body.Children {
		d := st
		if d.Type == "decorated_definition" {
			d = d.ChildByField("definition")
		}
		if d == nil || d.Type != "function_definition" {
			continue
		}
		if rets := m.returnsOf(d); len(rets) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[d.ChildByField("name").Text()] = rets
		}
	}
	return out
}

// classBases lists the qualified names of a local class's bases, through
// the module's own classes.
func (m *Model) classBases(cls *Node, depth int) []string {
	sc := cls.ChildByField("superclasses")
	if sc == nil || depth > 5 {
		return nil
	}
	var out []string
	for _, base := range sc.NamedChildren() {
		if base.Type == "keyword_argument" {
			continue
		}
		if base.Type == "identifier" {
			if b := m.Binding(base); b != nil && b.Kind == ClassBinding {
				out = append(out, m.classBases(b.Stmt, depth+1)...)
				continue
			}
		}
		if q := m.summaryName(base); q != "" {
			out = append(out, q)
		}
	}
	return out
}

// summaryName is the qualified name a summary records for a base class
// or a callee: QualifiedName, a class of this module by its name, or, in a module that star-imports a project
// module, the name as written (`DoubleConv`, resolved later through the
// project) with the conventional aliases nn and F taken for torch.nn and
// torch.nn.functional (`nn.Module` from `from .parts import *`).
func (m *Model) summaryName(n *Node) string {
	if q := m.QualifiedName(n); q != "" {
		return q
	}
	if n.Type == "identifier" {
		if b := m.Binding(n); b != nil && b.Kind == ClassBinding && b.Scope == m.Module {
			return n.Text() // a class of this module: the summary's own entry
		}
	}
	if len(m.starFrom) == 0 {
		return ""
	}
	text := strings.Join(strings.Fields(n.Text()), "")
	root := RootIdent(n)
	if root == nil || len(m.Bindings(root)) > 0 {
		return "" // bound here: QualifiedName knew what it could
	}
	switch {
	case strings.HasPrefix(text, "nn."):
		return "torch.nn." + text[len("nn."):]
	case strings.HasPrefix(text, "F."):
		return "torch.nn.functional." + text[len("F."):]
	case n.Type == "identifier":
		return text
	}
	return ""
}

// returnedCallees names what a returned expression was built by: the
// callee of the call at the root of a method chain.
func (m *Model) returnedCallees(e *Node) []string {
	for e != nil && e.Type == "call" {
		fn := e.ChildByField("function")
		if fn == nil {
			return nil
		}
		if fn.Type == "identifier" {
			if b := m.Binding(fn); b != nil && b.Kind == ClassBinding {
				var out []string
				for _, base := range m.classBases(b.Stmt, 0) {
					out = append(out, "class:"+base)
				}
				return out
			}
		}
		if q := m.QualifiedName(fn); q != "" {
			return []string{q}
		}
		if fn.Type != "attribute" {
			return nil
		}
		e = fn.ChildByField("object")
	}
	return nil
}

// trains reports a `.backward()` or `.zero_grad()` call inside def.
// savesState reports a definition that calls `.state_dict()` or
// `.load_state_dict()` (a checkpoint helper).
func savesState(def *Node) bool {
	for _, id := range def.File().OfTypeIn(def, "identifier") {
		if (id.Text() == "state_dict" || id.Text() == "load_state_dict") && methodCallOf(id) != nil {
			return true
		}
	}
	return false
}

func trains(def *Node) bool {
	for _, id := range def.File().OfTypeIn(def, "identifier") {
		if (id.Text() == "backward" || id.Text() == "zero_grad") && methodCallOf(id) != nil {
			return true
		}
	}
	return false
}

// classMethodsBackward returns a class's StepMethods (stepOnly: the
// backward outside the method's loops) or TrainingMethods, sorted.
func classMethodsBackward(cls *Node, stepOnly bool) []string {
	calls := callsOutsideLoops
	if !stepOnly {
		calls = callsInBody
	}
	body := cls.ChildByField("body")
	if body == nil {
		return nil
	}
	methods := map[string]*Node{}
	for _, st := range body.Children {
		if st.Type == "decorated_definition" {
			st = st.ChildByField("definition")
		}
		if st != nil && st.Type == "function_definition" {
			methods[st.ChildByField("name").Text()] = st
		}
	}
	steps := map[string]bool{}
	for name, d := range methods {
		steps[name] = calls(d, func(call *Node) bool { return CallAttr(call) == "backward" })
	}
	for round := 0; round < 3; round++ {
		for name, d := range methods {
			steps[name] = steps[name] || calls(d, func(call *Node) bool {
				fn := call.ChildByField("function")
				return fn.Type == "attribute" && fn.ChildByField("object").Text() == "self" && steps[fn.ChildByField("attribute").Text()]
			})
		}
	}
	var out []string
	for name, step := range steps {
		if step {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// CallAttr is the method name of a call `x.name(...)`, or "".
func CallAttr(call *Node) string {
	if fn := call.ChildByField("function"); fn != nil && fn.Type == "attribute" {
		return fn.ChildByField("attribute").Text()
	}
	return ""
}

// callsInBody reports a call of def's own body (not of a nested
// function) that matches.
func callsInBody(def *Node, match func(call *Node) bool) bool {
	for _, call := range def.File().OfTypeIn(def, "call") {
		if call.ChildByField("function") == nil || !match(call) {
			continue
		}
		nested := false
		for n := call.Parent; n != nil && n != def; n = n.Parent {
			if IsDefOrLambda(n) {
				nested = true
				break
			}
		}
		if !nested {
			return true
		}
	}
	return false
}

// callsOutsideLoops reports a call of def's own body (not of a nested
// function) that matches and runs outside every loop of def.
func callsOutsideLoops(def *Node, match func(call *Node) bool) bool {
	for _, call := range def.File().OfTypeIn(def, "call") {
		if call.ChildByField("function") == nil || !match(call) {
			continue
		}
		inside := false
		for n := call.Parent; n != nil && n != def; n = n.Parent {
			if IsLoop(n) || IsDefOrLambda(n) {
				inside = true
				break
			}
		}
		if !inside {
			return true
		}
	}
	return false
}

// iteratedParams returns a function's parameter names and those a for
// loop of its body iterates.
func (m *Model) iteratedParams(def *Node) (params, iterated []string) {
	ps := def.ChildByField("parameters")
	if ps == nil {
		return nil, nil
	}
	for _, p := range ps.NamedChildren() {
		if id := paramName(p); id != nil {
			params = append(params, id.Text())
		}
	}
	for _, loop := range def.File().OfTypeIn(def, "for_statement") {
		right := loop.ChildByField("right")
		if right == nil {
			continue
		}
		ids := def.File().OfTypeIn(right, "identifier")
		if right.Type == "identifier" {
			// `bar = tqdm(enumerate(loader)); for step, data in bar:`
			if v := m.ValueOf(right); v != nil {
				ids = append(ids, def.File().OfTypeIn(v, "identifier")...)
			}
		}
		// `loop = tqdm(train_dl)`, then `for i, b in enumerate(loop):`,
		// with `loop` rebound before each of several loops: the binding
		// that reaches this one.
		for _, id := range def.File().OfTypeIn(right, "identifier") {
			if b := m.ReachingBinding(id, loop); b != nil && b.Value != nil && b.Stmt != nil && def.Contains(b.Stmt) {
				ids = append(ids, def.File().OfTypeIn(b.Value, "identifier")...)
			}
		}
		for _, id := range ids {
			for _, name := range params {
				if id.Text() == name && id.Field != "attribute" && !slicesContains(iterated, name) {
					iterated = append(iterated, name)
				}
			}
		}
	}
	return params, iterated
}

// nestedIterated returns the parameters a for loop of def iterates
// inside another loop of def: once per pass of the outer one (an epoch).
func (m *Model) nestedIterated(def *Node, params []string) []string {
	var out []string
	for _, loop := range def.File().OfTypeIn(def, "for_statement") {
		outer := false
		for a := loop.Parent; a != nil && a != def; a = a.Parent {
			if IsLoop(a) {
				outer = true
				break
			}
		}
		if !outer {
			continue
		}
		if right := loop.ChildByField("right"); right != nil {
			for _, id := range def.File().OfTypeIn(right, "identifier") {
				if id.Field != "attribute" && slicesContains(params, id.Text()) && !slicesContains(out, id.Text()) {
					out = append(out, id.Text())
				}
			}
		}
	}
	return out
}

// passedOnIterated completes the module's functions' Iterated with the
// parameters they hand to another function of the module that iterates
// them (`fit(train_loader, ...)` calling `train_epoch(train_loader, ...)`
// once per epoch), and EpochIterated with those handed on inside a loop.
func (m *Model) passedOnIterated(out map[string]*ProjectDef, defs map[string]*Node) {
	for round := 0; round < 3; round++ {
		changed := false
		for name, def := range defs {
			d := out[name]
			for _, call := range def.File().OfTypeIn(def, "call") {
				fn := call.ChildByField("function")
				if fn == nil || fn.Type != "identifier" || fn.Text() == name {
					continue
				}
				callee := out[fn.Text()]
				if callee == nil || defs[fn.Text()] == nil {
					continue
				}
				inLoop := false
				for a := call.Parent; a != nil && a != def; a = a.Parent {
					if IsLoop(a) {
						inLoop = true
						break
					}
				}
				for i, a := range PositionalArgs(call) {
					if a.Type != "identifier" || !slicesContains(d.Params, a.Text()) || i >= len(callee.Params) {
						continue
					}
					p := callee.Params[i]
					if slicesContains(callee.Iterated, p) && !slicesContains(d.Iterated, a.Text()) {
						d.Iterated = append(d.Iterated, a.Text())
						changed = true
					}
					if (slicesContains(callee.EpochIterated, p) || inLoop && slicesContains(callee.Iterated, p)) && !slicesContains(d.EpochIterated, a.Text()) {
						d.EpochIterated = append(d.EpochIterated, a.Text())
						changed = true
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

func slicesContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// callees returns the distinct qualified names of the calls inside n.
func (m *Model) callees(n *Node) []string {
	var out []string
	for _, c := range m.File.OfTypeIn(n, "call") {
		q := m.CalleeName(c)
		if fn := c.ChildByField("function"); q == "" && fn != nil {
			q = m.summaryName(fn)
		}
		if q != "" && !slicesContains(out, q) {
			out = append(out, q)
		}
	}
	// A torch.nn class kept to be built later (`self.rnn_cell = nn.GRU`,
	// then `self.rnn = self.rnn_cell(...)`): the class builds it too.
	for _, a := range m.File.OfTypeIn(n, "assignment") {
		v := a.ChildByField("right")
		if v == nil || !v.Is("attribute", "identifier") {
			continue
		}
		q := m.QualifiedName(v)
		if last := q[strings.LastIndex(q, ".")+1:]; strings.HasPrefix(q, "torch.nn.") && last != "" && last[0] >= 'A' && last[0] <= 'Z' && !slicesContains(out, q) {
			out = append(out, q)
		}
		// A module-level instance kept on self (`self.text = netNLP`,
		// `netNLP = Qmodel(...)` at the top of the module: blind sample
		// S36B's GQA model, whose question LSTM was not seen): the class
		// builds what that instance's class builds.
		if v.Type == "identifier" {
			if b := m.Binding(v); b != nil && b.Kind == AssignBinding && b.Scope == m.Module && b.Value != nil && b.Value.Type == "call" {
				bq := m.CalleeName(b.Value)
				if fn := b.Value.ChildByField("function"); bq == "" && fn != nil {
					bq = m.summaryName(fn)
				}
				if bq != "" && !slicesContains(out, bq) {
					out = append(out, bq)
				}
			}
		}
	}
	return out
}

// spatialConv reports a call under n building an nn.Conv layer that is not
// a PointwiseConv.
func (m *Model) spatialConv(n *Node) bool {
	for _, c := range m.File.OfTypeIn(n, "call") {
		if q := m.CalleeName(c); strings.HasPrefix(q, "torch.nn.Conv") && !PointwiseConv(q, c) {
			return true
		}
	}
	return false
}

// PointwiseConv reports an nn.Conv1d/2d/3d of kernel size 1 (a literal 1
// or (1, 1), by keyword or third positional argument): a matrix product
// over the channels at every position.
func PointwiseConv(q string, call *Node) bool {
	if !strings.HasPrefix(q, "torch.nn.Conv") || strings.HasPrefix(q, "torch.nn.ConvTranspose") {
		return false
	}
	k := Arg(call, 2, "kernel_size")
	if k == nil {
		return false
	}
	switch k.Type {
	case "integer":
		return k.Text() == "1"
	case "tuple":
		for _, c := range k.NamedChildren() {
			if c.Type != "integer" || c.Text() != "1" {
				return false
			}
		}
		return len(k.NamedChildren()) > 0
	}
	return false
}

// ImportsProjectModule reports whether a project module this module imports
// (`import utils`, `from utils import same_seeds`, a star import) has a
// summary entry for which pred holds.
func (m *Model) ImportsProjectModule(pred func(module *ProjectDef) bool) bool {
	return m.ImportsProjectModuleDeep(pred, 1)
}

// relativeImports are the module scope's relative imports as spelled
// (".engine.train_one_epoch" for `from .engine import train_one_epoch`).
func (m *Model) relativeImports() []string {
	var out []string
	for _, bs := range m.Module.Bindings {
		for _, b := range bs {
			if b.Kind == ImportBinding && b.Relative != "" {
				out = append(out, b.Relative)
			}
		}
	}
	return out
}

// importedModules resolves imports spelled in the module at path (a
// module, or a module and a name) to the project modules' own entries.
func (m *Model) importedModules(path string, imports []string) []*ProjectDef {
	if m.project == nil {
		return nil
	}
	var out []*ProjectDef
	for _, q := range imports {
		for _, mod := range []string{q, q[:max(strings.LastIndexByte(q, '.'), 0)]} {
			if mod == "" {
				mod = "." // from . import config
			}
			if d := m.project.Def(path, mod, ModuleKey); d != nil && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// ImportsProjectModuleDeep is ImportsProjectModule through the imports of
// the imported modules too, up to depth modules away (train.py imports
// model.py, which imports the op package, whose fused_act.py compiles a
// kernel).
func (m *Model) ImportsProjectModuleDeep(pred func(module *ProjectDef) bool, depth int) bool {
	return m.ProjectModuleDeep(pred, depth) != nil
}

// ProjectModuleDeep returns the nearest module that
// ImportsProjectModuleDeep would find, nil when there is none.
func (m *Model) ProjectModuleDeep(pred func(module *ProjectDef) bool, depth int) *ProjectDef {
	for _, d := range m.projectModulesWithin(depth) {
		if pred(d) {
			return d
		}
	}
	return nil
}

// projectModulesWithin returns the project modules the file imports, and
// those they import, up to depth modules away (at most 64), nearest
// first; computed once per depth.
func (m *Model) projectModulesWithin(depth int) []*ProjectDef {
	if m.project == nil {
		return nil
	}
	if mods, ok := m.projectImports[depth]; ok {
		return mods
	}
	level := m.importedModules(m.File.Src.Path, append(append(slices.Clip(m.imported), m.starFrom...), m.relativeImports()...))
	seen := slices.Clone(level)
	for d := 1; d < depth && len(level) > 0; d++ {
		var next []*ProjectDef
		for _, mod := range level {
			for _, n := range m.importedModules(mod.Path, append(append(slices.Clip(mod.Externals), mod.Star...), mod.Relatives...)) {
				if !slices.Contains(seen, n) && len(seen) < 64 {
					seen = append(seen, n)
					next = append(next, n)
				}
			}
		}
		level = next
	}
	if m.projectImports == nil {
		m.projectImports = map[int][]*ProjectDef{}
	}
	m.projectImports[depth] = seen
	return seen
}

// DefinesAutogradFunction reports a module that defines a subclass of
// torch.autograd.Function.
func (m *Model) DefinesAutogradFunction() bool {
	if !m.File.Spells("Function") {
		return false
	}
	for _, c := range m.File.OfType("class_definition") {
		if slices.Contains(m.classBases(c, 0), "torch.autograd.Function") || slices.Contains(m.classBases(c, 0), "torch.autograd.function.Function") {
			return true
		}
	}
	return false
}

// HalfWeights reports a file that runs its networks in half precision
// by other means than autocast:
//   - the way OpenAI CLIP does: clip.load, which builds its model in fp16
//     on a GPU, or a call of a function named convert_weights (CLIP's cast
//     of a model's layers to fp16, kept by the projects built on it);
//   - a module cast to fp16 or bf16 (`model.to(device, dtype=torch.bfloat16)`,
//     `model.half()`, `model.bfloat16()`);
//   - half default tensors (`torch.set_default_tensor_type(torch.cuda.
//     HalfTensor)`, `torch.set_default_dtype(torch.bfloat16)`), as LLaMA
//     model factories build their weights;
//   - Lightning's precision setting (`Fabric(precision="bf16-mixed")`,
//     `Trainer(precision=16)`), which runs the forward under autocast.
func HalfWeights(m *Model) bool {
	if !m.File.SpellsAny([]string{"clip", "convert_weights", "half", "bfloat16", "float16", "HalfTensor", "precision"}) {
		return false
	}
	for _, c := range m.File.OfType("call") {
		fn := c.ChildByField("function")
		q := m.CalleeName(c)
		switch {
		case q == "clip.load" || fn.Type == "identifier" && fn.Text() == "convert_weights" ||
			fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "convert_weights":
			return true
		case q == "torch.set_default_tensor_type" || q == "torch.set_default_dtype":
			if a := Arg(c, 0, "t"); a != nil && halfDtype(m, a) {
				return true
			}
		case strings.HasPrefix(q, "lightning.") || strings.HasPrefix(q, "pytorch_lightning."):
			if v := KeywordValue(c, "precision"); v != nil && strings.Contains(v.Text(), "16") {
				return true
			}
		case fn.Type == "attribute":
			obj, attr := fn.ChildByField("object"), fn.ChildByField("attribute").Text()
			switch attr {
			case "half", "bfloat16":
				if len(PositionalArgs(c)) == 0 && m.IsModule(obj) {
					return true
				}
			case "to":
				if !m.IsModule(obj) {
					continue
				}
				// `.to(torch.bfloat16)`, `.to(device, dtype=torch.bfloat16)`
				if slices.ContainsFunc(append(PositionalArgs(c), KeywordValue(c, "dtype")), func(a *Node) bool { return a != nil && halfDtype(m, a) }) {
					return true
				}
			}
		}
	}
	return false
}

// halfDtype reports torch.float16, torch.half or torch.bfloat16, or a
// half tensor type (torch.cuda.HalfTensor, "torch.cuda.BFloat16Tensor").
func halfDtype(m *Model, n *Node) bool {
	q := m.QualifiedName(n)
	if s, ok := StringValue(n); ok {
		q = s
	}
	switch q {
	case "torch.float16", "torch.half", "torch.bfloat16":
		return true
	}
	return strings.HasPrefix(q, "torch.") && (strings.HasSuffix(q, ".HalfTensor") || strings.HasSuffix(q, ".BFloat16Tensor"))
}

// Warps reports a file that calls grid_sample and multiplies matrices
// (`@`, matmul, bmm): the inverse warp of a view-synthesis loss, whose
// pixel coordinates come from camera matrices (`intrinsics_inv @
// pixel_coords`).
func Warps(m *Model) bool {
	if !m.File.Spells("grid_sample") {
		return false
	}
	multiplies := len(m.File.MethodCalls("matmul")) > 0 || len(m.File.MethodCalls("bmm")) > 0 || len(m.CallsTo("torch.matmul", "torch.bmm")) > 0
	if !multiplies {
		for _, op := range m.File.OfType("binary_operator") {
			if o := op.ChildByField("operator"); o != nil && o.Text() == "@" {
				multiplies = true
				break
			}
		}
	}
	if !multiplies {
		return false
	}
	for _, c := range m.File.OfType("call") {
		if strings.HasSuffix(m.CalleeName(c), "grid_sample") {
			return true
		}
	}
	return false
}

// SparseMatmul reports a file that multiplies by a sparse matrix:
// torch.spmm, torch.sparse.mm, torch.sparse.addmm.
func SparseMatmul(m *Model) bool {
	if !m.File.Spells("spmm") && !m.File.Spells("sparse") {
		return false
	}
	for _, c := range m.File.OfType("call") {
		switch m.CalleeName(c) {
		case "torch.spmm", "torch.sparse.mm", "torch.sparse.addmm", "torch.smm", "torch.hspmm":
			return true
		}
	}
	return false
}

// CreatesGraph reports a file that passes create_graph (other than
// False) to a call: torch.autograd.grad(..., create_graph=True) for a
// gradient penalty or a second-order method.
func CreatesGraph(f *File) bool {
	if !f.Spells("create_graph") {
		return false
	}
	for _, kw := range f.OfType("keyword_argument") {
		name := kw.ChildByField("name")
		if name != nil && name.Text() == "create_graph" {
			if v := kw.ChildByField("value"); v == nil || v.Type != "false" {
				return true
			}
		}
	}
	return false
}

// coordinateNames are the names atomistic models give the positions they
// differentiate an energy by (forces are -dE/dR).
var coordinateNames = map[string]bool{"r": true, "pos": true, "position": true, "positions": true, "coord": true, "coords": true, "coordinates": true, "xyz": true}

// DifferentiatesCoordinates reports a file that takes torch.autograd.grad
// of an energy, or with respect to atom positions
// (`torch.autograd.grad(E_pred, R, create_graph=True)`,
// `grad(energy, data.pos)`): an interatomic potential trained on forces,
// whose regression of absolute energies (about -11,000 eV on QM9, judged
// to meV) and forces through a double backward wants full fp32.
func DifferentiatesCoordinates(m *Model) bool {
	if !m.File.Spells("grad") {
		return false
	}
	for _, call := range m.CallsTo("torch.autograd.grad") {
		if out := Arg(call, 0, "outputs"); out != nil && strings.Contains(strings.ToLower(out.Text()), "energ") {
			return true
		}
		inputs := Arg(call, 1, "inputs")
		if inputs == nil {
			continue
		}
		items := []*Node{inputs}
		if inputs.Is("list", "tuple") {
			items = inputs.NamedChildren()
		}
		for _, in := range items {
			name := in
			if in.Type == "attribute" {
				name = in.ChildByField("attribute")
			}
			if name.Type == "identifier" && coordinateNames[strings.ToLower(name.Text())] {
				return true
			}
		}
	}
	return false
}

// linalgName is the name of the call Model.LinalgInForward finds
// (`torch.svd`, or `.svd()` for a method), "" when there is none.
func linalgName(m *Model) string {
	call := m.LinalgInForward()
	if call == nil {
		return ""
	}
	if name := m.CalleeName(call); name != "" {
		return name
	}
	return "." + call.ChildByField("function").ChildByField("attribute").Text() + "()"
}

// callsAutocast reports a call of something named autocast (torch.autocast,
// torch.cuda.amp.autocast, a project's amp_autocast wrapper): mixed
// precision used, not merely imported.
func callsAutocast(f *File) bool {
	if !f.SpellsMatching(func(s string) bool { return strings.Contains(strings.ToLower(s), "autocast") }) {
		return false
	}
	for _, c := range f.OfType("call") {
		if fn := c.ChildByField("function"); fn != nil && strings.Contains(strings.ToLower(fn.Text()), "autocast") {
			return true
		}
	}
	return false
}

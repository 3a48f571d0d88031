package patterns

import (
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// The fact layer's library half: what a value is (a model, an optimizer,
// a DataLoader ...) and where it lives (CUDA, CUDA when available, an
// accelerator, the CPU), each with its evidence and a confidence. The
// language half, rewrite.Model.Origins, says where a value comes from
// (assignments, returns, `self.` attributes, call sites, sibling modules);
// this file knows what PyTorch, Accelerate and friends make of those
// origins. One Facts serves one file, for every rule (Pass.Facts), and is
// the rewrite.Classifier the loop analysis asks.

// Kind is what a value is.
type Kind int

// The kinds the rules ask about.
const (
	KindUnknown Kind = iota
	KindModule
	KindOptimizer
	KindLoader
)

func (k Kind) String() string {
	switch k {
	case KindModule:
		return "model"
	case KindOptimizer:
		return "optimizer"
	case KindLoader:
		return "DataLoader"
	}
	return "unknown"
}

// Fact is what a value is, how sure, and why.
type Fact struct {
	Kind       Kind
	Confidence rewrite.Confidence
	Evidence   string
}

// Facts answers questions about one file's values, caching the answers.
type Facts struct {
	m     *rewrite.Model
	kinds map[*rewrite.Node]Fact
	// byName caches the answers for names: every read of a name with the
	// same bindings has the same origins (keyed by the first binding).
	byName map[*rewrite.Binding]Fact
	// busy holds, for each question being answered, its depth in the
	// chain of questions (1 for the outermost); cycleAt is the lowest
	// depth of such a question asked again during the answers under way
	// (0: none). An answer that read one asked above it is provisional:
	// it is not cached, so what a question answers does not depend on
	// which rule happened to ask first.
	busy    map[any]int
	cycleAt int
}

// kindBusy marks, in the Facts caches, a question being answered: asked
// again inside its own answer (a cycle: `model = wrap(model)`), it gets
// KindUnknown. It never leaves the caches.
const kindBusy Kind = -1

// memoFact returns the cached answer for key, computing it on first ask;
// during compute the entry holds kindBusy, so a cycle answers Fact{}. An
// answer computed while a question above it was cut short this way is
// returned but not cached (see Facts.busy).
func memoFact[K comparable](fx *Facts, cache map[K]Fact, key K, compute func() Fact) Fact {
	if f, ok := cache[key]; ok {
		if f.Kind == kindBusy {
			if d := fx.busy[key]; fx.cycleAt == 0 || d < fx.cycleAt {
				fx.cycleAt = d
			}
			return Fact{}
		}
		return f
	}
	if fx.busy == nil {
		fx.busy = map[any]int{}
	}
	depth := len(fx.busy) + 1
	fx.busy[key] = depth
	cache[key] = Fact{Kind: kindBusy}
	outer := fx.cycleAt
	fx.cycleAt = 0
	f := compute()
	delete(fx.busy, key)
	if fx.cycleAt != 0 && fx.cycleAt < depth {
		delete(cache, key) // provisional: it read a question still open above
		if outer == 0 || fx.cycleAt < outer {
			outer = fx.cycleAt
		}
	} else {
		cache[key] = f
	}
	fx.cycleAt = outer
	return f
}

// newFacts returns the facts of the file m models, installed as its
// classifier.
func newFacts(m *rewrite.Model) *Facts {
	fx := &Facts{m: m}
	m.SetClassifier(fx)
	return fx
}

// IsModule implements rewrite.Classifier.
func (fx *Facts) IsModule(expr *rewrite.Node) bool {
	if expr != nil && expr.Type == "attribute" && expr.ChildByField("attribute").Text() == "forward" {
		// `model.forward(x)`, called by hand: the model's forward pass.
		return fx.IsModule(expr.ChildByField("object"))
	}
	if expr != nil && expr.Type == "attribute" && !fx.selfAttribute(expr) {
		return false // `x.to`, `torch.cat`, `nn.Linear`: not a model instance
	}
	return fx.What(expr).Kind == KindModule
}

// selfAttribute reports `self.x`: an attribute of a method's first
// parameter, whose values the class's methods assign.
func (fx *Facts) selfAttribute(expr *rewrite.Node) bool {
	obj := expr.ChildByField("object")
	if obj == nil || obj.Type != "identifier" {
		return false
	}
	b := fx.m.Binding(obj)
	return b != nil && b.Kind == rewrite.ParamBinding
}

// IsOptimizer implements rewrite.Classifier.
func (fx *Facts) IsOptimizer(expr *rewrite.Node) bool {
	return fx.What(expr).Kind == KindOptimizer
}

// IsDataLoader implements rewrite.Classifier: a DataLoader, also wrapped
// in enumerate(), zip(), tqdm() or itertools.cycle() (IterationWrapper).
func (fx *Facts) IsDataLoader(expr *rewrite.Node) bool {
	if expr != nil && expr.Type == "call" {
		q := fx.m.CalleeName(expr)
		if rewrite.WrapsIteration(q, expr) {
			for _, a := range rewrite.PositionalArgs(expr) {
				if fx.IsDataLoader(a) {
					return true
				}
			}
			return false
		}
	}
	if f := fx.What(expr); f.Kind != KindUnknown {
		return f.Kind == KindLoader
	}
	// `with tqdm(loader) as bar:`: the progress bar over a loader.
	if expr != nil && expr.Type == "identifier" {
		if bs := fx.m.Bindings(expr); len(bs) == 1 && bs[0].Kind == rewrite.WithBinding {
			if ap := bs[0].Ident.Ancestor("as_pattern"); ap != nil && len(ap.NamedChildren()) == 2 {
				if v := ap.NamedChildren()[0]; v.Type == "call" && strings.HasPrefix(fx.m.CalleeName(v), "tqdm") {
					return fx.IsDataLoader(v)
				}
			}
		}
	}
	// Iterated for batches and named like a loader (`self.train_loader`,
	// an attribute set from a parameter nothing else tells about).
	if expr != nil && expr.Type == "attribute" {
		if par := expr.Parent; par != nil && par.Type == "for_statement" && par.ChildByField("right") == expr {
			return loaderLikeName(strings.ToLower(expr.ChildByField("attribute").Text()))
		}
	}
	return false
}

// What says what expr is.
func (fx *Facts) What(expr *rewrite.Node) Fact {
	if expr == nil {
		return Fact{}
	}
	compute := func() Fact { return fx.what(expr) }
	if expr.Type == "identifier" {
		if bs := fx.m.Bindings(expr); len(bs) > 0 {
			if fx.byName == nil {
				fx.byName = map[*rewrite.Binding]Fact{}
			}
			return memoFact(fx, fx.byName, bs[0], compute)
		}
	}
	if fx.kinds == nil {
		fx.kinds = map[*rewrite.Node]Fact{}
	}
	return memoFact(fx, fx.kinds, expr, compute)
}

func (fx *Facts) what(expr *rewrite.Node) Fact {
	var best Fact
	conflict := false
	for _, o := range fx.m.Origins(expr) {
		f := fx.originKind(o)
		if f.Kind == KindUnknown {
			continue
		}
		if o.Confidence < f.Confidence {
			f.Confidence = o.Confidence
		}
		if o.Via != "" && f.Evidence != "" && !strings.Contains(f.Evidence, o.Via) {
			f.Evidence += " (" + o.Via + ")"
		}
		switch {
		case best.Kind == KindUnknown:
			best = f
		case best.Kind != f.Kind:
			conflict = true
		case f.Confidence > best.Confidence:
			best = f
		}
	}
	if conflict {
		return Fact{}
	}
	if best.Kind == KindUnknown && expr.Type == "attribute" && fx.selfAttribute(expr) {
		// `self.net_g = build_network(opt)` of a registry gpuopt cannot
		// read, then `self.net_g.named_parameters()` and
		// `self.net_g.train()` in the class (BasicSR's models, blind
		// sample S25L): how the class uses the attribute.
		if f := fx.selfUsage(expr); f.Kind == KindModule {
			return f
		}
	}
	if best.Kind == KindUnknown && expr.Type == "identifier" {
		// `model = EfficientNet()` of a module gpuopt cannot read, then
		// `optim.AdamW(model.parameters())`: how the name is used.
		for _, b := range fx.m.Bindings(expr) {
			if b.Kind != rewrite.AssignBinding {
				return fx.argumentUsage(expr)
			}
		}
		if bs := fx.m.Bindings(expr); len(bs) > 0 {
			f := fx.usage(bs, expr.Text(), "`"+expr.Text()+"`")
			if f.Kind == KindModule {
				return f
			}
		}
	}
	return best
}

// argumentUsage says what a parameter is by the names this file's call
// sites pass for it, where the usage of such a name says it is a model:
// `train_or_eval(net, ...)` in main(), whose `net` is built by a module
// gpuopt cannot read and handed to an optimizer as `net.parameters()`
// (blind sample S36D's DBC, whose training loop went unseen).
func (fx *Facts) argumentUsage(expr *rewrite.Node) Fact {
	bs := fx.m.Bindings(expr)
	if len(bs) != 1 || bs[0].Kind != rewrite.ParamBinding || bs[0].Ident == nil {
		return Fact{}
	}
	def := enclosingFunction(bs[0].Ident)
	if def == nil {
		return Fact{}
	}
	for _, site := range fx.m.CallSites(def) {
		arg := rewrite.ArgumentFor(def, site, bs[0].Ident)
		if arg == nil || arg.Type != "identifier" {
			continue
		}
		if f := fx.What(arg); f.Kind == KindModule {
			f.Confidence = min(f.Confidence, rewrite.Likely)
			f.Evidence += " (argument of " + def.ChildByField("name").Text() + "() at line " + strconv.Itoa(fx.m.File.Src.LineOf(site.Start)+1) + ")"
			return f
		}
	}
	return Fact{}
}

// moduleMethods return the module they are called on.
var selfReturningMethods = map[string]bool{"to": true, "cuda": true, "cpu": true, "train": true, "eval": true,
	"half": true, "float": true, "bfloat16": true, "double": true, "requires_grad_": true, "to_empty": true,
	"share_memory": true}

// wrappers return (a wrapper of) the model, optimizer or loader they get
// as their first argument.
var wrappers = map[string]bool{"torch.compile": true, "torch.nn.DataParallel": true,
	"torch.nn.parallel.DistributedDataParallel": true, "torch.nn.parallel.DataParallel": true,
	"torch.nn.DistributedDataParallel": true, "torch.jit.script": true,
	"torch.distributed.fsdp.FullyShardedDataParallel": true}

// notModels are names of Hugging Face classes built by from_pretrained
// that are not models.
var notModels = []string{"Tokenizer", "Processor", "FeatureExtractor", "Config", "ImageProcessor"}

// originKind says what one origin of a value is.
func (fx *Facts) originKind(o rewrite.Origin) Fact {
	m := fx.m
	if o.Def != nil {
		return defKind(o.Def, o.Call != nil || !o.Def.Class)
	}
	if o.Annotation {
		return annotationKind(m, o.Expr)
	}
	if o.Expr == nil {
		if o.Param != nil {
			return fx.paramUsage(o.Param)
		}
		return Fact{}
	}
	e := o.Expr
	if e.Type != "call" {
		return Fact{}
	}
	if o.Index >= 0 {
		// `model, opt, loader = accelerator.prepare(model, opt, loader)`:
		// prepare hands back its arguments, wrapped, in order.
		if callAttr(e) == "prepare" || callAttr(e) == "setup" {
			if args := rewrite.PositionalArgs(e); o.Index < len(args) && !rewrite.HasSplat(e) {
				f := fx.What(args[o.Index])
				if f.Kind != KindUnknown {
					f.Evidence += ", prepared by " + e.ChildByField("function").Text()
				}
				return f
			}
		}
		return Fact{}
	}
	q := m.CalleeName(e)
	fn := e.ChildByField("function")
	switch {
	case q == "":
	case wrappers[q]:
		if a := rewrite.Arg(e, 0, "model"); a != nil {
			if f := fx.What(a); f.Kind == KindModule {
				return f
			}
		}
		if q != "torch.compile" && q != "torch.jit.script" {
			return Fact{KindModule, rewrite.Certain, q + "(...)"}
		}
		return Fact{}
	case q == "torch.utils.data.DataLoader" || q == "torch.utils.data.dataloader.DataLoader":
		return Fact{KindLoader, rewrite.Certain, "built by DataLoader(...)"}
	}
	if f := calleeKind(q); f.Kind != KindUnknown {
		return f
	}
	if fn != nil && fn.Type == "attribute" {
		attr := fn.ChildByField("attribute").Text()
		obj := fn.ChildByField("object")
		switch {
		case selfReturningMethods[attr]:
			f := fx.What(obj)
			if f.Kind == KindModule {
				return f
			}
			return Fact{}
		case obj != nil && obj.Type == "identifier" && o.Model == nil:
			// `selector = ModelSelector(...)` (a project class), then
			// `model = selector.get_model()`: what that method returns.
			if f := fx.methodResult(obj, attr); f.Kind != KindUnknown {
				return f
			}
		}
		switch {
		case attr == "from_pretrained":
			oq := m.QualifiedName(obj)
			if strings.HasPrefix(oq, "transformers.") || strings.HasPrefix(oq, "diffusers.") || strings.HasPrefix(oq, "peft.") {
				for _, s := range notModels {
					if strings.Contains(oq, s) {
						return Fact{}
					}
				}
				return Fact{KindModule, rewrite.Certain, oq + ".from_pretrained(...)"}
			}
		}
	}
	if m.IsModuleClass(fn) {
		return Fact{KindModule, rewrite.Certain, "an instance of " + fn.Text() + ", an nn.Module"}
	}
	return Fact{}
}

// methodResult says what calling method on obj returns, when obj is an
// instance of a project class whose summary knows.
func (fx *Facts) methodResult(obj *rewrite.Node, method string) Fact {
	for _, o := range fx.m.Origins(obj) {
		if o.Def == nil || !o.Def.Class || o.Call == nil {
			continue
		}
		rets := o.Def.MethodReturns[method]
		if len(rets) == 0 {
			return Fact{}
		}
		f := defKind(&rewrite.ProjectDef{Path: o.Def.Path, Name: o.Def.Name + "." + method, Returns: rets}, true)
		if f.Kind == KindUnknown {
			// An instance of a class its module imports from the project.
			for _, r := range rets {
				if d := fx.m.ProjectDefOf(o.Def.Path, r); d != nil && d.Class {
					if f = defKind(d, true); f.Kind != KindUnknown {
						f.Evidence += " (returned by " + o.Def.Name + "." + method + "())"
						break
					}
				}
			}
		}
		return f
	}
	return Fact{}
}

// calleeKind is what a library callable returns.
func calleeKind(q string) Fact {
	switch {
	case q == "":
		return Fact{}
	case strings.HasPrefix(q, "torch.optim.lr_scheduler."), strings.HasPrefix(q, "torch.optim.swa_utils."):
		return Fact{}
	case strings.HasPrefix(q, "torch.optim."), strings.HasPrefix(q, "bitsandbytes.optim."), q == "transformers.AdamW",
		strings.HasSuffix(q, ".GradScaler"):
		return Fact{KindOptimizer, rewrite.Certain, "built by " + q + "(...)"}
	case q == "torch.utils.data.DataLoader", q == "torch.utils.data.dataloader.DataLoader":
		return Fact{KindLoader, rewrite.Certain, "built by DataLoader(...)"}
	case strings.HasPrefix(q, "torch.nn.functional."), strings.HasPrefix(q, "torch.nn.init."), strings.HasPrefix(q, "torch.nn.utils."):
		return Fact{}
	case q == "timm.create_model", strings.HasPrefix(q, "torch.nn."), strings.HasPrefix(q, "torchvision.models."):
		return Fact{KindModule, rewrite.Certain, "built by " + q + "(...)"}
	case strings.HasPrefix(q, "transformers."):
		for _, s := range notModels {
			if strings.Contains(q, s) {
				return Fact{}
			}
		}
		if strings.HasSuffix(q, "Trainer") || strings.HasSuffix(q, "Arguments") || strings.HasSuffix(q, "pipeline") || strings.HasSuffix(q, "Collator") {
			return Fact{}
		}
		return Fact{KindModule, rewrite.Certain, "built by " + q + "(...)"}
	}
	return Fact{}
}

// defKind says what a sibling module's definition makes: an instance of a
// class (called), what a function returns.
func defKind(d *rewrite.ProjectDef, called bool) Fact {
	where := d.Name + " in " + baseName(d.Path)
	if d.Class {
		if !called {
			return Fact{}
		}
		for _, b := range d.Bases {
			if b == "torch.nn.Module" || strings.HasPrefix(b, "torch.nn.") || strings.HasPrefix(b, "transformers.") ||
				b == "lightning.LightningModule" || b == "pytorch_lightning.LightningModule" || b == "lightning.pytorch.LightningModule" {
				return Fact{KindModule, rewrite.Certain, "an instance of " + where + ", an nn.Module"}
			}
		}
		return Fact{}
	}
	var best Fact
	for _, r := range d.Returns {
		var f Fact
		if base, ok := strings.CutPrefix(r, "class:"); ok {
			if base == "torch.nn.Module" || strings.HasPrefix(base, "torch.nn.") {
				f = Fact{KindModule, rewrite.Certain, ""}
			}
		} else {
			f = calleeKind(r)
		}
		if f.Kind == KindUnknown {
			continue
		}
		if best.Kind != KindUnknown && best.Kind != f.Kind {
			return Fact{}
		}
		best = f
	}
	if best.Kind != KindUnknown {
		best.Evidence = "returned by " + where
	}
	return best
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// annotationKind reads a parameter annotation.
func annotationKind(m *rewrite.Model, t *rewrite.Node) Fact {
	q := m.QualifiedName(t)
	text := strings.TrimSpace(t.Text())
	last := text[strings.LastIndexByte(text, '.')+1:]
	switch {
	case q == "torch.nn.Module" || last == "Module" && strings.Contains(text, "nn") || strings.HasPrefix(q, "transformers.") && strings.HasSuffix(q, "PreTrainedModel"):
		return Fact{KindModule, rewrite.Certain, "annotated " + text}
	case strings.HasPrefix(q, "torch.optim.") || last == "Optimizer":
		return Fact{KindOptimizer, rewrite.Certain, "annotated " + text}
	case q == "torch.utils.data.DataLoader" || last == "DataLoader":
		return Fact{KindLoader, rewrite.Certain, "annotated " + text}
	}
	return Fact{}
}

// paramUsage recognises a parameter nothing else tells about by how its
// function uses it: `.parameters()`, `.train()`, `.eval()` make a model;
// `.zero_grad()` with `.step()` an optimizer; iterated by a for loop and
// named like a loader, a DataLoader.
func (fx *Facts) paramUsage(param *rewrite.Node) Fact {
	var b *rewrite.Binding
	for _, bd := range fx.m.Bindings(param) {
		if bd.Ident == param {
			b = bd
		}
	}
	if b == nil {
		for _, bd := range fx.m.BindingsAt(param, param.Text()) {
			if bd.Ident == param {
				b = bd
			}
		}
	}
	if b == nil {
		return Fact{}
	}
	return fx.usage([]*rewrite.Binding{b}, param.Text(), "parameter "+param.Text())
}

// usage says what the value of a name is by what the reads of its
// bindings do with it (paramUsage).
func (fx *Facts) usage(bs []*rewrite.Binding, text, label string) Fact {
	var methods usedSet
	iterated, called := false, false
	for _, b := range bs {
		for _, u := range b.Uses {
			par := u.Parent
			if par == nil {
				continue
			}
			switch {
			case par.Type == "attribute" && par.ChildByField("object") == u:
				if c := par.Parent; c != nil && c.Type == "call" && c.ChildByField("function") == par {
					methods.add(par.ChildByField("attribute").Text())
				}
			case par.Type == "call" && par.ChildByField("function") == u:
				called = true
			case par.Type == "for_statement" && par.ChildByField("right") == u:
				iterated = true
			case par.Type == "argument_list" && par.Parent != nil:
				if q := fx.m.CalleeName(par.Parent); (q == "enumerate" || strings.HasPrefix(q, "tqdm")) && len(rewrite.PositionalArgs(par.Parent)) > 0 && rewrite.PositionalArgs(par.Parent)[0] == u {
					if g := par.Parent.Parent; g != nil && g.Type == "for_statement" && g.ChildByField("right") == par.Parent {
						iterated = true
					}
				}
			}
		}
	}
	name := strings.ToLower(text)
	switch {
	case methods.has(useParameters) || methods.has(useTrain|useEval) && (called || methods.has(useStateDict) || modelLikeName(name)):
		return Fact{KindModule, rewrite.Likely, label + " used as a model"}
	case methods.has(useZeroGrad) && methods.has(useStep), methods.has(useStep) && strings.Contains(name, "optim"):
		return Fact{KindOptimizer, rewrite.Likely, label + " used as an optimizer (.step(), .zero_grad())"}
	case iterated && loaderLikeName(name):
		return Fact{KindLoader, rewrite.Likely, label + " iterated for batches"}
	}
	return Fact{}
}

// selfUsage is usage for `self.x`: the methods the class calls on it
// (its reads in every method), a model only by .parameters() or
// .named_parameters().
func (fx *Facts) selfUsage(attr *rewrite.Node) Fact {
	var methods usedSet
	for _, r := range fx.m.SelfAttrReads(attr) {
		if par := r.Parent; par != nil && par.Type == "attribute" && par.ChildByField("object") == r {
			if c := par.Parent; c != nil && c.Type == "call" && c.ChildByField("function") == par {
				methods.add(par.ChildByField("attribute").Text())
			}
		}
	}
	if methods.has(useParameters) {
		return Fact{KindModule, rewrite.Likely, "`" + attr.Text() + "` used as a model (.parameters())"}
	}
	return Fact{}
}

// usedSet is the set of telling methods called on a parameter.
type usedSet uint8

const (
	useParameters usedSet = 1 << iota // .parameters() / .named_parameters()
	useTrain
	useEval
	useStateDict
	useZeroGrad
	useStep
)

func (u *usedSet) add(method string) {
	switch method {
	case "parameters", "named_parameters":
		*u |= useParameters
	case "train":
		*u |= useTrain
	case "eval":
		*u |= useEval
	case "state_dict":
		*u |= useStateDict
	case "zero_grad":
		*u |= useZeroGrad
	case "step":
		*u |= useStep
	}
}

// has reports whether any of the methods in mask was called.
func (u usedSet) has(mask usedSet) bool { return u&mask != 0 }

func modelLikeName(n string) bool {
	return strings.Contains(n, "model") || strings.Contains(n, "net") || strings.Contains(n, "encoder") || strings.Contains(n, "decoder")
}

func loaderLikeName(n string) bool {
	return strings.Contains(n, "loader") || n == "dl" || strings.HasSuffix(n, "_dl") || strings.HasPrefix(n, "dl_")
}

// loaderSite is a DataLoader construction and a name its loader is bound
// to: `name = DataLoader(...)`, or the name a call of a same-file helper
// that returns the loader is bound to (`train_dl, eval_dl = get_loaders()`).
type loaderSite struct {
	Call    *rewrite.Node
	Binding *rewrite.Binding
	// Via names the helper the loader came through ("" when built here).
	Via string
}

// loaderSites returns the file's DataLoader constructions with the names
// they are bound to (a construction returned by a helper called twice has
// two sites).
func loaderSites(p *Pass) []loaderSite {
	return p.Memo("facts.loaderSites", func() any {
		var out []loaderSite
		m := p.Model
		for _, call := range m.CallsTo("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader") {
			stmt := call.Parent
			if stmt != nil && stmt.Type == "assignment" && stmt.ChildByField("right") == call {
				left := stmt.ChildByField("left")
				if left != nil && left.Type == "identifier" {
					if b := m.TargetBinding(left); b != nil {
						out = append(out, loaderSite{Call: call, Binding: b})
						out = append(out, returnedFrom(m, b, call)...)
					}
					continue
				}
				// `self.loader = DataLoader(...)` in a method: the loader's
				// uses are the reads of self.loader in the class's methods.
				if reads := m.SelfAttrReads(left); len(reads) > 0 {
					out = append(out, loaderSite{Call: call, Binding: &rewrite.Binding{
						Name: left.Text(), Kind: rewrite.AssignBinding, Ident: left, Stmt: rewrite.Statement(call),
						Scope: m.ScopeOf(stmt), Value: call, Uses: reads,
					}})
					continue
				}
			}
			// `self.data_loader['train'] = DataLoader(...)` into a dict kept
			// on self (ST-GCN's and 2s-AGCN's Processor classes): the uses
			// are the reads of that item in the class's methods.
			if stmt != nil && stmt.Type == "assignment" && stmt.ChildByField("right") == call {
				if left := stmt.ChildByField("left"); left != nil {
					if reads := m.ItemReads(left); len(reads) > 0 {
						out = append(out, loaderSite{Call: call, Binding: &rewrite.Binding{
							Name: left.Text(), Kind: rewrite.AssignBinding, Ident: left, Stmt: stmt,
							Scope: m.ScopeOf(stmt), Value: call, Uses: reads,
						}})
						continue
					}
				}
			}
			if site, ok := loaderInDict(m, call); ok {
				out = append(out, site)
				continue
			}
			out = append(out, returnedFrom(m, nil, call)...)
		}
		return out
	}).([]loaderSite)
}

// loaderInDict follows a loader built as a value of a dict bound to a name
// (PyTorch's transfer-learning tutorial: `dataloaders = {x: DataLoader(...)
// for x in ["train", "val"]}`, then `for inputs, labels in
// dataloaders[phase]:`): the loader's uses are the subscripts of the name.
func loaderInDict(m *rewrite.Model, call *rewrite.Node) (loaderSite, bool) {
	pair := call.Parent
	if pair == nil || pair.Type != "pair" || pair.ChildByField("value") != call || pair.Parent == nil || !pair.Parent.Is("dictionary", "dictionary_comprehension") {
		return loaderSite{}, false
	}
	dict := pair.Parent
	asg := dict.Parent
	if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != dict {
		return loaderSite{}, false
	}
	left := asg.ChildByField("left")
	if left == nil || left.Type != "identifier" {
		return loaderSite{}, false
	}
	b := m.TargetBinding(left)
	if b == nil {
		return loaderSite{}, false
	}
	var subs []*rewrite.Node
	for _, u := range b.Uses {
		if u.Parent != nil && u.Parent.Type == "subscript" && u.Parent.ChildByField("value") == u {
			subs = append(subs, u.Parent)
		}
	}
	if len(subs) == 0 {
		return loaderSite{}, false
	}
	return loaderSite{Call: call, Binding: &rewrite.Binding{Name: b.Name, Kind: rewrite.AssignBinding, Ident: b.Ident, Stmt: b.Stmt,
		Scope: b.Scope, Value: dict, Uses: subs}}, true
}

// returnedFrom follows a loader built in a helper (bound to b, or the
// call itself) to the names the helper's callers bind its result to.
func returnedFrom(m *rewrite.Model, b *rewrite.Binding, call *rewrite.Node) []loaderSite {
	def := call.Ancestor("function_definition")
	if def == nil {
		return nil
	}
	var out []loaderSite
	for _, r := range rewrite.ReturnValues(def) {
		tuple := r.Is("expression_list", "tuple")
		items := []*rewrite.Node{r}
		if tuple {
			items = r.NamedChildren()
		}
		idx := -1
		for i, it := range items {
			if it == call || b != nil && it.Type == "identifier" && m.Binding(it) == b {
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		if !tuple {
			idx = -1 // the whole value
		}
		name := def.ChildByField("name").Text()
		for _, site := range m.CallSites(def) {
			asg := site.Parent
			if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != site {
				continue
			}
			left := asg.ChildByField("left")
			target := left
			if idx >= 0 {
				if !left.Is("pattern_list", "tuple_pattern", "expression_list") || idx >= len(left.NamedChildren()) {
					continue
				}
				target = left.NamedChildren()[idx]
			}
			if target.Type != "identifier" {
				continue
			}
			for _, tb := range m.ScopeOf(asg).Bindings[target.Text()] {
				if tb.Ident == target {
					out = append(out, loaderSite{Call: call, Binding: tb, Via: name + "()"})
				}
			}
		}
	}
	return out
}

// Where says where a value lives, how sure, and (when not certain) what a
// message must say it assumed.
type Where struct {
	// CUDA: on a CUDA device (certainly, or likely: see Confidence).
	CUDA       bool
	Confidence rewrite.Confidence
	// Assumption is the sentence a likely answer adds to a message
	// ("assumes `device` is CUDA: it is when torch.cuda.is_available()").
	Assumption string
	// Fallback: the device may be the CPU (or another backend) when no GPU
	// is there, as with `"cuda" if torch.cuda.is_available() else "cpu"`.
	Fallback bool
}

// moduleWhere says where the parameters of the model named by ident live
// at site: moved by `.to(dev)` / `.cuda()` on the path to site.
func moduleWhere(p *Pass, ident, site *rewrite.Node) Where {
	k, move := p.Model.ModuleMove(ident, site)
	dev := ""
	if move != nil {
		if d, _, _ := p.Model.MoveTarget(move); d != nil {
			dev = d.Text()
		}
	}
	return deviceWhere(p, k, dev)
}

// deviceWhere turns a device kind into a Where, with the assumption a
// message states for a likely answer.
func deviceWhere(p *Pass, k rewrite.DeviceKind, dev string) Where {
	name := "the device"
	if dev != "" {
		name = "`" + dev + "`"
	}
	switch k {
	case rewrite.DeviceCUDA:
		return Where{CUDA: true, Confidence: rewrite.Certain}
	case rewrite.DeviceMaybeCUDA:
		return Where{CUDA: true, Confidence: rewrite.Likely, Fallback: true,
			Assumption: "assumes " + name + " is CUDA: it is when a GPU is available"}
	case rewrite.DeviceSomething:
		if p.Model.UsesCUDA() {
			return Where{CUDA: true, Confidence: rewrite.Likely, Fallback: true,
				Assumption: "assumes " + name + " is a CUDA device, as the rest of the file targets CUDA"}
		}
	}
	return Where{}
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Helpers shared by the DEV rules (where the model and its batches live).

// batchLoop is a for loop over a DataLoader built in this file (directly,
// or through enumerate() / tqdm()), whose batch is unpacked into names.
type batchLoop struct {
	Loop   *rewrite.Node
	Loader *rewrite.Binding // `loader = DataLoader(...)`
	// Targets are the names the batch is bound to (`x, y` in
	// `for x, y in loader` or `for i, (x, y) in enumerate(loader)`).
	Targets []*rewrite.Node
}

// batchLoopOf recognises loop as a batchLoop.
func batchLoopOf(p *Pass, loop *rewrite.Node) (batchLoop, bool) {
	if loop == nil || loop.Type != "for_statement" {
		return batchLoop{}, false
	}
	n, left := loop.ChildByField("right"), loop.ChildByField("left")
	if n == nil || left == nil {
		return batchLoop{}, false
	}
	enumerated := false
	for n.Type == "call" {
		q := p.Model.CalleeName(n)
		switch {
		case q == "enumerate" && !enumerated:
			enumerated = true
		case strings.HasPrefix(q, "tqdm") && strings.HasSuffix(q, "tqdm"):
		default:
			return batchLoop{}, false
		}
		pos := rewrite.PositionalArgs(n)
		if len(pos) == 0 || rewrite.HasSplat(n) {
			return batchLoop{}, false
		}
		n = pos[0]
	}
	if n.Type != "identifier" {
		return batchLoop{}, false
	}
	b := p.Model.Binding(n)
	if b == nil || b.Kind != rewrite.AssignBinding || !isDataLoaderCall(p, b.Value) {
		return batchLoop{}, false
	}
	if enumerated {
		items := left.NamedChildren()
		if !left.Is("pattern_list", "tuple_pattern") || len(items) != 2 {
			return batchLoop{}, false
		}
		left = items[1]
	}
	var targets []*rewrite.Node
	switch {
	case left.Type == "identifier":
		targets = []*rewrite.Node{left}
	case left.Is("pattern_list", "tuple_pattern", "list_pattern"):
		for _, c := range left.NamedChildren() {
			if c.Type != "identifier" {
				return batchLoop{}, false
			}
			targets = append(targets, c)
		}
	default:
		return batchLoop{}, false
	}
	return batchLoop{Loop: loop, Loader: b, Targets: targets}, true
}

func isDataLoaderCall(p *Pass, n *rewrite.Node) bool {
	q := p.Model.CalleeName(n)
	return q == "torch.utils.data.DataLoader" || q == "torch.utils.data.dataloader.DataLoader"
}

// isModel reports whether expr names an nn.Module instance that computes on
// tensors: every assignment of the name builds a module (IsModule) or
// rebinds the name to itself moved or switched (`model = model.to(device)`).
// Tokenizers and processors built by from_pretrained are left out.
func isModel(p *Pass, expr *rewrite.Node) bool {
	if expr == nil || expr.Type != "identifier" {
		return false
	}
	bs := p.Model.Bindings(expr)
	built := false
	for _, b := range bs {
		if b.Kind != rewrite.AssignBinding || b.Value == nil {
			return false
		}
		if v := rewrite.RootName(b.Value); v != nil && v.Text() == expr.Text() && selfRebinding(b.Value) {
			continue
		}
		if !p.Model.IsModule(b.Value) {
			return false
		}
		low := strings.ToLower(b.Value.Text())
		for _, s := range []string{"tokenizer", "processor", "featureextractor", "feature_extractor"} {
			if strings.Contains(low, s) {
				return false
			}
		}
		built = true
	}
	return built
}

// selfRebinding reports `name.to(...)`, `name.cuda()`, `name.train()` ...:
// a chain of methods that return the module itself.
func selfRebinding(v *rewrite.Node) bool {
	v = unchainModuleMethods(v)
	return v != nil && v.Type == "identifier"
}

// tensorChainTop climbs from a read of a tensor through method calls,
// attributes read and subscripts (`x.float().view(-1)[0]`) and returns the
// outermost expression computed from it.
func tensorChainTop(n *rewrite.Node) *rewrite.Node {
	for n.Parent != nil {
		par := n.Parent
		switch {
		case par.Type == "attribute" && par.ChildByField("object") == n &&
			par.Parent != nil && par.Parent.Type == "call" && par.Parent.ChildByField("function") == par:
			n = par.Parent
		case par.Type == "subscript" && par.ChildByField("value") == n:
			n = par
		case par.Type == "parenthesized_expression":
			n = par
		default:
			return n
		}
	}
	return n
}

// moveCallOf returns the first move method call (`.to(...)`, `.cuda()`,
// `.cpu()` ...) in the chain of tensor methods applied to ident
// (`x.float().to(device)`), or nil. Dtype conversions (`.to(torch.half)`)
// are not moves.
func moveCallOf(p *Pass, ident *rewrite.Node) *rewrite.Node {
	top := tensorChainTop(ident)
	var found *rewrite.Node
	for n := top; n != ident && n != nil; {
		switch n.Type {
		case "call":
			if moveMethods[callAttr(n)] && !(callAttr(n) == "to" && dtypeConversion(p, n)) {
				found = n // keep the innermost
			}
			n = n.ChildByField("function").ChildByField("object")
		case "subscript":
			n = n.ChildByField("value")
		case "parenthesized_expression":
			n = n.NamedChildren()[0]
		default:
			return found
		}
	}
	return found
}

// argumentOf returns the call that receives expr as an argument
// (positional or keyword), or nil.
func argumentOf(expr *rewrite.Node) *rewrite.Node {
	par := expr.Parent
	if par != nil && par.Type == "keyword_argument" && par.ChildByField("value") == expr {
		par = par.Parent
	}
	if par != nil && par.Type == "argument_list" && par.Parent != nil && par.Parent.Type == "call" {
		return par.Parent
	}
	return nil
}

// batchUse classifies how one read of a batch name is used.
type batchUse int

const (
	useOther  batchUse = iota // not evidently as a tensor (print, len, x.shape ...)
	useTensor                 // with tensors: a model or torch call, an operator, a derived tensor
	useMove                   // moved: x.to(...), x.cuda(), x.cpu()
	useOpaque                 // handed to code gpuopt does not know (it may move it)
	// useStructured: the batch is a container, not a tensor: indexed by a
	// string (or indexed at all when it is the loop's only name), splatted
	// (`model(**batch)`), unpacked or iterated.
	useStructured
)

// moveMethods are tensor methods that change a tensor's device.
var moveMethods = map[string]bool{"to": true, "cuda": true, "cpu": true, "xpu": true, "npu": true, "hpu": true, "mps": true, "to_device": true}

// harmlessCalls are builtins that neither move a tensor nor reveal where it
// lives.
var harmlessCalls = map[string]bool{"print": true, "len": true, "isinstance": true, "type": true, "str": true, "repr": true, "id": true}

// classifyBatchUse tells how ident, a read of a batch name, is used; sole
// says the name is the whole batch (`for batch in loader`).
func classifyBatchUse(p *Pass, ident *rewrite.Node, sole bool) batchUse {
	if moveCallOf(p, ident) != nil {
		return useMove
	}
	top := tensorChainTop(ident)
	for n := top; n != ident; {
		switch n.Type {
		case "subscript":
			if idx := n.ChildByField("subscript"); sole || idx == nil || idx.Type == "string" {
				return useStructured
			}
			n = n.ChildByField("value")
		case "call":
			n = n.ChildByField("function").ChildByField("object")
		case "parenthesized_expression":
			n = n.NamedChildren()[0]
		default:
			return useOpaque
		}
	}
	par := top.Parent
	if par == nil {
		return useOther
	}
	switch {
	case par.Is("binary_operator", "comparison_operator", "unary_operator", "boolean_operator"):
		return useTensor
	case par.Is("dictionary_splat", "list_splat", "pattern_list", "expression_list", "tuple", "list"):
		return useStructured
	case par.Type == "for_statement" && par.ChildByField("right") == top:
		return useStructured
	case par.Type == "assignment" && par.ChildByField("right") == top:
		switch l := par.ChildByField("left"); {
		case l != nil && l.Type == "identifier" && top != ident:
			return useTensor // x2 = x.view(-1, 784)
		case l != nil && l.Is("pattern_list", "tuple_pattern", "list_pattern"):
			return useStructured
		}
		return useOpaque
	}
	call := argumentOf(top)
	if call == nil {
		return useOther
	}
	fn := call.ChildByField("function")
	q := p.Model.CalleeName(call)
	switch {
	case isModel(p, fn) || p.Model.IsModule(fn):
		return useTensor
	case strings.HasPrefix(q, "torch."):
		return useTensor
	case harmlessCalls[q]:
		return useOther
	}
	return useOpaque
}

// bodyReads returns the reads of the loop body (nested functions left out)
// that resolve to the binding the loop creates for target.
func bodyReads(p *Pass, loop, target *rewrite.Node) []*rewrite.Node {
	var own *rewrite.Binding
	for _, b := range p.Model.Bindings(target) {
		if b.Ident == target {
			own = b
		}
	}
	if own == nil {
		for _, b := range p.Model.BindingsAt(target, target.Text()) {
			if b.Ident == target {
				own = b
			}
		}
	}
	var out []*rewrite.Node
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if n.Type != "identifier" || n.Text() != target.Text() || !p.Model.IsRead(n) {
			return
		}
		for _, b := range p.Model.Bindings(n) {
			if b == own {
				out = append(out, n)
				return
			}
		}
	})
	return out
}

// reboundInBody returns the statements of the loop body that bind name
// again (assignments, nested loops, with-items ...).
func reboundInBody(p *Pass, loop, target *rewrite.Node) []*rewrite.Node {
	var out []*rewrite.Node
	s := p.Model.ScopeOf(target)
	for _, b := range s.Bindings[target.Text()] {
		if b.Ident != target && loop.Contains(b.Ident) {
			out = append(out, b.Stmt)
		}
	}
	return out
}

// moveStatement writes `x, y = x.to(dev), y.to(dev)` for the names, with
// move the method call text ("to(device)" or "cuda()").
func moveStatement(names []string, move string) string {
	rhs := make([]string, len(names))
	for i, n := range names {
		rhs[i] = n + "." + move
	}
	return strings.Join(names, ", ") + " = " + strings.Join(rhs, ", ")
}

// placingFramework reports a library or wrapper that places the model and
// its inputs on devices by itself (Accelerate, Lightning, DeepSpeed,
// DataParallel, DistributedDataParallel, the Hugging Face Trainer ...): the
// DEV rules stay silent in such files.
func placingFramework(p *Pass) bool {
	return p.Memo("dev.placingFramework", func() any { return placingFrameworkScan(p) }).(bool)
}

// placingFrameworkScan computes placingFramework (once per file).
func placingFrameworkScan(p *Pass) bool {
	for _, pkg := range []string{"accelerate", "lightning", "pytorch_lightning", "lightning_fabric", "deepspeed",
		"fastai", "ignite", "composer", "horovod", "colossalai", "torch_xla", "intel_extension_for_pytorch",
		"torch_directml", "habana_frameworks", "ray", "trl", "skorch", "catalyst", "mmengine", "detectron2",
		"pytorch_accelerated", "torch.distributed", "torch.nn.parallel"} {
		if p.Model.Imports(pkg) {
			return true
		}
	}
	// Each name below is spelled in the file wherever one of them is
	// referred to (in the import or the attribute chain): without any of
	// them the walk below cannot find one.
	if !p.File.SpellsAny([]string{"distributed", "parallel", "DataParallel", "DistributedDataParallel", "Trainer", "Seq2SeqTrainer", "pipeline"}) {
		return false
	}
	found := false
	check := func(n *rewrite.Node) {
		q := p.Model.QualifiedName(n)
		switch {
		case strings.HasPrefix(q, "torch.distributed"), strings.HasPrefix(q, "torch.nn.parallel"),
			q == "torch.nn.DataParallel", q == "torch.nn.DistributedDataParallel",
			q == "transformers.Trainer", q == "transformers.Seq2SeqTrainer", q == "transformers.pipeline":
			found = true
		}
	}
	for _, n := range p.File.OfType("attribute") {
		check(n)
	}
	for _, n := range p.File.OfType("identifier") {
		if !found && p.Model.IsRead(n) {
			check(n)
		}
	}
	return found
}

// mentionsDevice reports whether n's text involves devices: a call of a
// move method, a device-like keyword, an identifier or attribute naming a
// device or CUDA, or a "cuda" string.
func mentionsDevice(n *rewrite.Node) bool {
	f := n.File()
	for _, id := range f.OfTypeIn(n, "identifier") {
		t := strings.ToLower(id.Text())
		if strings.Contains(t, "device") || strings.Contains(t, "cuda") || moveMethods[t] {
			return true
		}
	}
	for _, s := range f.OfTypeIn(n, "string") {
		t := strings.ToLower(s.Text())
		if strings.Contains(t, "cuda") || strings.Contains(t, "gpu") {
			return true
		}
	}
	return false
}

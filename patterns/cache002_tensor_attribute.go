package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TensorAttribute is CACHE002.
var TensorAttribute = &Rule{
	Code:      "CACHE002",
	Name:      "tensor-attribute-not-buffer",
	Title:     "Register constant tensors of an nn.Module as (non-persistent) buffers",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"tensor", "as_tensor", "zeros", "ones", "full", "arange", "eye", "linspace", "logspace"}, // last parts of the tensorAttrFactories the attribute must be built by
	Check:     checkTensorAttribute,
}

func init() { Register(TensorAttribute) }

var tensorAttrFactories = map[string]bool{
	"torch.tensor": true, "torch.as_tensor": true, "torch.zeros": true, "torch.ones": true, "torch.full": true,
	"torch.arange": true, "torch.eye": true, "torch.linspace": true, "torch.logspace": true,
}

func checkTensorAttribute(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(1, 6) || moduleCastInFile(p) {
		return
	}
	for _, cls := range p.File.OfType("class_definition") {
		if !p.Model.IsModuleClass(cls.ChildByField("name")) {
			continue
		}
		init := methodNamed(cls, "__init__")
		if init == nil {
			continue
		}
		if !p.Model.UsesCUDA() && len(p.Model.CallSites(init)) > 0 {
			continue // built by this file, which never names CUDA: nothing moves it
		}
		params := init.ChildByField("parameters").NamedChildren()
		if len(params) == 0 || params[0].Type != "identifier" {
			continue
		}
		self := params[0].Text()
		superSeen := false
		for _, stmt := range rewrite.Statements(init.ChildByField("body")) {
			if isSuperInit(p, stmt, self) {
				superSeen = true
				continue
			}
			if !superSeen || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
				continue
			}
			asg := stmt.NamedChildren()[0]
			if asg.Type != "assignment" || asg.ChildByField("type") != nil {
				continue
			}
			left, right := asg.ChildByField("left"), asg.ChildByField("right")
			if left == nil || right == nil || left.Type != "attribute" || left.ChildByField("object").Text() != self || right.Type != "call" {
				continue
			}
			// (`torch.arange(r).reshape([1, 1, r]).float()`: the factory
			// under conversions, BTS's local planar guidance, blind sample
			// S25A, whose forward copies it to the GPU each time.)
			factory := underConversions(p, right)
			if !tensorAttrFactories[p.Model.CalleeName(factory)] || rewrite.HasSplat(factory) ||
				rewrite.KeywordArg(factory, "requires_grad") != nil || rewrite.KeywordArg(factory, "device") != nil {
				// Built on a device already (`torch.zeros(1, device=device)`):
				// it does not stay on the CPU.
				continue
			}
			name := left.ChildByField("attribute").Text()
			if !bufferSafe(p, cls, asg, name) || !readAfterInit(p, init, name) || cpuScalarOperand(p, cls, factory, self+"."+name) {
				continue
			}
			edit := rewrite.Edit{Start: asg.Start, End: asg.End,
				New: self + `.register_buffer("` + name + `", ` + right.Text() + `, persistent=False)`}
			p.Report(asg, "self."+name+" is a plain tensor attribute: .to(device)/.cuda() do not move it, so it stays on the CPU; register it as a non-persistent buffer",
				Fix(rewrite.Safe, "Register "+name+" as a buffer (persistent=False)", edit))
		}
	}
}

// cpuScalarOperand reports a 0-d tensor built from a Python number
// (`torch.tensor(math.cos(math.pi - m))`, `torch.tensor(16)`) that the
// class never moves itself (no `attr.to(...)`/`attr.cuda()`): CUDA kernels
// take a 0-d CPU tensor operand as a scalar, with no copy (blind sample
// S22L's ArcFace margins `self.th`, `self.mm`, four findings judged false).
func cpuScalarOperand(p *Pass, cls, factory *rewrite.Node, attr string) bool {
	switch p.Model.CalleeName(factory) {
	case "torch.tensor", "torch.as_tensor":
	default:
		return false
	}
	args := rewrite.PositionalArgs(factory)
	if len(args) == 0 || !scalarExpr(p, args[0]) {
		return false
	}
	text := cls.Text()
	return !strings.Contains(text, attr+".to(") && !strings.Contains(text, attr+".cuda(")
}

// scalarExpr reports a Python number: a literal, arithmetic on numbers (a
// name on one side), or a call of math's functions, float() or int().
func scalarExpr(p *Pass, e *rewrite.Node) bool {
	switch e.Type {
	case "integer", "float":
		return true
	case "unary_operator", "parenthesized_expression":
		c := e.NamedChildren()
		return len(c) > 0 && scalarExpr(p, c[len(c)-1])
	case "binary_operator":
		// Arithmetic with a number on either side (`math.sin(math.pi - m) * m`).
		l, r := e.ChildByField("left"), e.ChildByField("right")
		return scalarExpr(p, l) && (scalarExpr(p, r) || r.Type == "identifier") || l.Type == "identifier" && scalarExpr(p, r)
	case "attribute":
		q := p.Model.QualifiedName(e)
		return q == "math.pi" || q == "math.e" || q == "math.inf"
	case "call":
		q := p.Model.CalleeName(e)
		return strings.HasPrefix(q, "math.") || q == "float" || q == "int"
	}
	return false
}

// readAfterInit reports an attribute `name` read outside the __init__
// that sets it (in forward, another method, or code of the file): one read
// only while building the module (handed to a helper's constructor:
// blind sample S14E's contrastive memory) never meets a device.
func readAfterInit(p *Pass, init *rewrite.Node, name string) bool {
	cls := enclosingClass(init)
	for _, id := range p.File.Identifiers(name) {
		if id.Field == "attribute" && id.Parent != nil && id.Parent.Type == "attribute" && !init.Contains(id) {
			if fn := enclosingFunction(id); fn != nil && cls != nil && enclosingClass(fn) == cls && uncalledMethod(p, fn) {
				continue // read in a method nothing calls (blind sample S28E's logdeep attention_net)
			}
			return true
		}
	}
	return false
}

// moduleHooks are the methods of an nn.Module that PyTorch or a training
// framework calls by name.
var moduleHooks = map[string]bool{"forward": true, "extra_repr": true, "reset_parameters": true, "train": true, "eval": true,
	"training_step": true, "validation_step": true, "test_step": true, "predict_step": true, "configure_optimizers": true}

// uncalledMethod reports a method of a module class that no code of the
// project names (`.attention_net`, or its name in a string): it never
// runs. Not for dunder methods, hooks PyTorch or a framework calls by
// name, decorated methods, nor in a file that imports Lightning (whose
// trainer calls hooks by name).
func uncalledMethod(p *Pass, fn *rewrite.Node) bool {
	name := fn.ChildByField("name").Text()
	if strings.HasPrefix(name, "__") || moduleHooks[name] || strings.HasPrefix(name, "on_") || fn.Parent != nil && fn.Parent.Type == "decorated_definition" {
		return false
	}
	if p.Model.Imports("lightning") || p.Model.Imports("pytorch_lightning") {
		return false
	}
	return !p.Model.ProjectSpells("."+name, `"`+name+`"`, `'`+name+`'`)
}

// methodNamed returns the def `name` in a class body (decorated or not).
func methodNamed(cls *rewrite.Node, name string) *rewrite.Node {
	for _, s := range rewrite.Statements(cls.ChildByField("body")) {
		if s.Type == "decorated_definition" {
			s = s.ChildByField("definition")
		}
		if s != nil && s.Type == "function_definition" && s.ChildByField("name").Text() == name {
			return s
		}
	}
	return nil
}

// isSuperInit reports `super().__init__(...)`, `super(C, self).__init__(...)`
// or `nn.Module.__init__(self)` as a statement.
func isSuperInit(p *Pass, stmt *rewrite.Node, self string) bool {
	if stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 || stmt.NamedChildren()[0].Type != "call" {
		return false
	}
	fn := stmt.NamedChildren()[0].ChildByField("function")
	if fn.Type != "attribute" || fn.ChildByField("attribute").Text() != "__init__" {
		return false
	}
	obj := fn.ChildByField("object")
	if obj.Type == "call" && p.Model.CalleeName(obj) == "super" {
		return true
	}
	return p.Model.QualifiedName(obj) == "torch.nn.Module"
}

// bufferSafe checks that turning self.<name> into a buffer cannot fail or
// change what the code reads: the only assignment to any `.<name>` in the
// file is asg, the class body does not define the name, no `del`/setattr
// touches it, and it is never turned into NumPy.
func bufferSafe(p *Pass, cls, asg *rewrite.Node, name string) bool {
	for _, s := range rewrite.Statements(cls.ChildByField("body")) {
		def := s
		if def.Type == "decorated_definition" {
			def = def.ChildByField("definition")
		}
		if def != nil && def.Is("function_definition", "class_definition") && def.ChildByField("name").Text() == name {
			return false
		}
		if s.Type == "expression_statement" && strings.Contains(s.Text(), name) {
			return false // a class attribute (or anything naming it)
		}
	}
	for _, id := range p.File.Identifiers(name) {
		n := id.Parent // `x.name`
		if id.Field != "attribute" || n == nil || n.Type != "attribute" {
			continue
		}
		par := n.Parent
		switch {
		case par.Is("assignment", "augmented_assignment") && n.Field == "left" && par != asg:
			return false // reassigned (a buffer only takes tensors or None)
		case par.Is("pattern_list", "tuple_pattern", "list_pattern", "delete_statement", "expression_list"):
			return false
		case par.Type == "attribute" && par.ChildByField("attribute").Text() == "numpy":
			return false
		case par.Type == "attribute" && strings.HasPrefix(par.ChildByField("attribute").Text(), "requires_grad"):
			return false // a learned value (SAC's log_alpha), not a constant
		case optimizedBy(p, n):
			return false // handed to an optimizer: a parameter kept by hand
		}
	}
	if len(p.Model.CallsTo("setattr", "delattr", "vars")) > 0 {
		return false
	}
	for _, n := range p.File.OfType("string") {
		if v, _ := rewrite.StringValue(n); v == name {
			return false // getattr(self, "w") and friends
		}
	}
	return true
}

// moduleCastInFile reports a dtype cast of something that may be a module
// (it would convert floating-point buffers): `.half()`, `.double()`,
// `.bfloat16()`, `.float()`, `.type(...)`, `.apply(...)` (which may cast),
// or `.to(...)` given anything but a device (a dtype, or a tensor whose
// dtype it takes).
func moduleCastInFile(p *Pass) bool {
	for _, call := range p.File.OfType("call") {
		fn := call.ChildByField("function")
		if fn == nil || fn.Type != "attribute" {
			continue
		}
		method := fn.ChildByField("attribute").Text()
		switch method {
		case "half", "double", "bfloat16", "float", "type", "apply", "to":
		default:
			continue // not a cast: no need to ask what the object is
		}
		if !mayBeModule(p, fn.ChildByField("object")) {
			continue
		}
		if method != "to" {
			return true
		}
		if rewrite.KeywordArg(call, "dtype") != nil || rewrite.HasSplat(call) {
			return true
		}
		for _, a := range rewrite.PositionalArgs(call) {
			if !deviceLike(p, a) {
				return true
			}
		}
	}
	return false
}

// deviceLike reports an argument of .to() that names a device: a string or
// integer literal, torch.device(...), or a name that says device.
func deviceLike(p *Pass, a *rewrite.Node) bool {
	switch a.Type {
	case "string", "integer":
		return true
	case "call":
		return p.Model.CalleeName(a) == "torch.device"
	case "identifier", "attribute":
		name := strings.ToLower(a.Text())
		if a.Type == "attribute" {
			name = strings.ToLower(a.ChildByField("attribute").Text())
		}
		return strings.Contains(name, "device") || name == "dev" || name == "cuda" || name == "cpu"
	}
	return false
}

// mayBeModule reports whether expr may hold an nn.Module: a known module,
// self, or a name that says so (model, net, module, encoder, ...).
func mayBeModule(p *Pass, expr *rewrite.Node) bool {
	if p.Model.IsModule(expr) {
		return true
	}
	if expr.Type == "call" {
		return p.Model.IsModuleClass(expr.ChildByField("function"))
	}
	name := strings.ToLower(expr.Text())
	if expr.Type == "attribute" {
		name = strings.ToLower(expr.ChildByField("attribute").Text())
	}
	for _, h := range []string{"self", "model", "net", "module", "encoder", "decoder", "backbone", "head", "layer", "block"} {
		if strings.Contains(name, h) {
			return true
		}
	}
	return false
}

// optimizedBy reports an expression inside the arguments of a
// torch.optim optimizer's constructor (`Adam([self.log_alpha], lr=...)`).
func optimizedBy(p *Pass, n *rewrite.Node) bool {
	stmt := rewrite.Statement(n)
	for a := n.Parent; a != nil && a != stmt; a = a.Parent {
		if a.Type == "call" && strings.HasPrefix(p.Model.CalleeName(a), "torch.optim.") {
			return true
		}
	}
	return false
}

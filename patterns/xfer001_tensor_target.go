package patterns

import (
	"github.com/gpuopt/gpuopt/rewrite"
)

// exactFactories make the same values in every dtype (or none, empty):
// building them in the target's dtype equals building in fp32 and
// converting.
var exactFactories = map[string]bool{"zeros": true, "ones": true, "empty": true, "eye": true}

// checkTensorTargetMove reports a factory moved to another tensor's
// device and dtype, `torch.zeros(n, d).type_as(x)` or `torch.ones(1)
// .to(x)` (Social GAN's `torch.zeros(1).to(pred_traj_gt)` every step:
// blind sample S27B), made on the CPU and then copied; `dtype=x.dtype,
// device=x.device` makes it there. Only factories whose values are exact
// in every dtype (zeros, ones, empty, eye) get the fix; `.to(x)` counts
// when x is known to be a tensor (a tensor expression, or the input of a
// module's forward), since `.to(name)` also takes a device.
func checkTensorTargetMove(p *Pass, call *rewrite.Node) {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return
	}
	method := fn.ChildByField("attribute").Text()
	args := call.ChildByField("arguments").NamedChildren()
	if method != "type_as" && method != "to" || len(args) != 1 || !args[0].Is("identifier", "attribute") {
		return
	}
	target := args[0]
	if method == "to" {
		if _, ok, _ := p.Model.MoveTarget(call); ok || !p.Model.IsTensorExpr(target) && !forwardInput(p, target) {
			return
		}
	}
	tail := fn.ChildByField("object")
	if tail.Type != "call" {
		return
	}
	factory := tail
	if inner := variableWrapped(p, tail); inner != nil {
		factory = inner // Variable(torch.zeros(n)).type_as(x)
	}
	name, ok := movableFactory(p, factory)
	if !ok || !exactFactories[name] || rewrite.KeywordArg(factory, "dtype") != nil || oneTimeFactory(p, name, factory) {
		return
	}
	t := target.Text()
	add, ok := rewrite.AppendItem(factory.ChildByField("arguments"), "dtype="+t+".dtype, device="+t+".device")
	if !ok {
		return
	}
	fix := Fix(rewrite.Safe, "Create it with dtype="+t+".dtype, device="+t+".device", add, rewrite.Edit{Start: tail.End, End: call.End})
	p.Report(call, "torch."+name+"(...) is built on the CPU and then copied to "+t+"'s device by ."+method+"("+t+"): pass dtype="+t+".dtype, device="+t+".device (same values)", fix)
}

// forwardInput reports the name of a parameter of an nn.Module's forward
// (other than self), read where that parameter is in scope: the input
// tensor of the step.
func forwardInput(p *Pass, n *rewrite.Node) bool {
	if n.Type != "identifier" {
		return false
	}
	// The binding that reaches this read: `x = torch.cat([x,
	// torch.zeros(...).to(x)])` reads the parameter x before rebinding it
	// (blind sample S38J's STGCN Align layer).
	b := p.Model.ReachingBinding(n, n)
	if b == nil {
		b = p.Model.Binding(n)
	}
	if b == nil || b.Kind != rewrite.ParamBinding {
		return false
	}
	fn := enclosingFunction(n)
	if fn == nil || fn.ChildByField("name").Text() != "forward" {
		return false
	}
	cls := enclosingClass(fn)
	return cls != nil && isModuleClass(p.Model, cls) && b.Ident.Text() != "self"
}

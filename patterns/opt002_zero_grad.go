package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// ZeroGradSetToNone is OPT002.
var ZeroGradSetToNone = &Rule{
	Code:      "OPT002",
	Name:      "zero-grad-set-to-none",
	Title:     "Call zero_grad(set_to_none=True) on PyTorch < 2.0",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"zero_grad"}, // findings are on X.zero_grad() calls
	Check:     checkZeroGrad,
}

func init() { Register(ZeroGradSetToNone) }

func checkZeroGrad(p *Pass) {
	if v := p.Env.Versions.Torch; v.AtLeast(2, 0) || !v.AtLeast(1, 7) || p.Env.TorchCeiling {
		// The default since 2.0; the argument does not exist before 1.7,
		// and a version read from the code's removed APIs (torchtext's
		// BucketIterator: before 1.8) may be far older (blind sample
		// S18J's seq2seq on torch 0.4, where the fix raised TypeError).
		return
	}
	if p.Env.GPU.AtLeast(9, 0) {
		// A Hopper GPU (sm_90) runs on PyTorch's builds from 2.0 (CUDA
		// 11.8), where set_to_none=True is the default: on that target a
		// pin below 2.0 is one to lift first, and the argument then
		// changes nothing (blind samples S24F, S26B, S26J and S26L judged
		// five such findings false).
		return
	}
	for _, call := range p.File.MethodCalls("zero_grad") {
		if len(call.ChildByField("arguments").NamedChildren()) != 0 {
			continue
		}
		obj := call.ChildByField("function").ChildByField("object")
		if !p.Model.IsOptimizer(obj) && !p.Model.IsModule(obj) || zeroedOnce(p, call) || zeroedBeforeItsLoop(p, call) || optimizesInputs(p, obj) {
			continue
		}
		e, ok := rewrite.AppendItem(call.ChildByField("arguments"), "set_to_none=True")
		if !ok {
			continue
		}
		p.Report(call, "zero_grad() writes zeros into every gradient before PyTorch 2.0: pass set_to_none=True (the default since 2.0)",
			Fix(rewrite.Unsafe, "Pass set_to_none=True", e))
	}
}

// optimizesInputs reports an optimizer built over a list of plain
// tensors, not a module's parameters (`optim.SGD([delta], lr=...)`, an
// attack's perturbation): zeroing one or two gradients is a memset or
// two, where set_to_none saves nothing worth a finding (blind sample
// S20E's TRADES attack).
func optimizesInputs(p *Pass, obj *rewrite.Node) bool {
	if !obj.Is("identifier") {
		return false
	}
	_, ok := plainTensorParams(p, p.Model.ValueOf(obj))
	return ok
}

// zeroedBeforeItsLoop reports a zero_grad() outside any loop of its
// function when the function's own step loop zeroes the same object
// again: the one before the loop runs once per call (once per epoch for
// a train_one_epoch), where set_to_none saves nothing worth a finding;
// the step's zero_grad is the one reported (blind sample S19A's
// deep_sort).
func zeroedBeforeItsLoop(p *Pass, call *rewrite.Node) bool {
	fn := enclosingFunction(call)
	if fn == nil || len(p.Model.EnclosingLoops(call)) > 0 {
		return false
	}
	obj := call.ChildByField("function").ChildByField("object").Text()
	for _, other := range p.File.MethodCalls("zero_grad") {
		if other != call && fn.Contains(other) && other.ChildByField("function").ChildByField("object").Text() == obj {
			if loops := p.Model.EnclosingLoops(other); len(loops) > 0 && fn.Contains(loops[0]) {
				return true
			}
		}
	}
	return false
}

// zeroedOnce reports a zero_grad() that runs once: in no loop, at module
// level or in a function every call of which, in this file and no other
// module, is in no loop either (a one-off benchmark zeroing a fresh
// optimizer, whose gradients are still None: blind sample S16I's
// Pyraformer). set_to_none saves its memset on every step of a loop.
func zeroedOnce(p *Pass, call *rewrite.Node) bool {
	if len(p.Model.EnclosingLoops(call)) > 0 {
		return false
	}
	fn := enclosingFunction(call)
	if fn == nil {
		return true
	}
	if enclosingClass(fn) != nil || p.Model.MayHaveForeignCallSites(fn) {
		return false // a method: a trainer's step, called from wherever
	}
	sites := p.Model.CallSites(fn)
	if len(sites) == 0 {
		return false
	}
	for _, site := range sites {
		if len(p.Model.EnclosingLoops(site)) > 0 || enclosingFunction(site) != nil {
			return false
		}
	}
	return true
}

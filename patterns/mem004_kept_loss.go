package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// KeptLoss is MEM004.
var KeptLoss = &Rule{
	Code:      "MEM004",
	Name:      "loss-kept-with-graph",
	Title:     "Keep loss.detach(), not the loss with its autograd graph, across steps",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"backward"}, // the kept name is an X.backward() receiver
	Check:     checkKeptLoss,
}

func init() { Register(KeptLoss) }

func checkKeptLoss(p *Pass) {
	for _, loop := range p.Model.TrainingLoops() {
		receivers := backwardReceivers(p, loop)
		if len(receivers) == 0 {
			continue
		}
		walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
			var kept, container *rewrite.Node
			switch n.Type {
			case "call":
				fn := n.ChildByField("function")
				if fn.Type != "attribute" || fn.ChildByField("attribute").Text() != "append" {
					return
				}
				args := rewrite.PositionalArgs(n)
				if len(args) != 1 || rewrite.HasSplat(n) {
					return
				}
				kept, container = args[0], fn.ChildByField("object")
			case "augmented_assignment":
				if op := n.ChildByField("operator"); op == nil || op.Text() != "+=" {
					return
				}
				if underNoGrad(p, n, loop) {
					// `with torch.no_grad(): total += loss`: the sum made
					// there is a new tensor without a graph (blind sample
					// S21B's Y-Net). An append under no_grad still keeps
					// the loss itself, graph and all.
					return
				}
				kept, container = n.ChildByField("right"), n.ChildByField("left")
			default:
				return
			}
			if kept != nil && kept.Type == "call" && dtypeMethods[callAttr(kept)] && len(kept.ChildByField("arguments").NamedChildren()) == 0 {
				// total += loss.float(): a cast keeps the graph
				if obj := kept.ChildByField("function").ChildByField("object"); obj.Type == "identifier" && receivers[obj.Text()] {
					kept = obj
				}
			}
			if kept == nil || !(kept.Type == "identifier" || lossAttribute(kept)) || !receivers[kept.Text()] {
				return
			}
			if p.Model.EnclosingLoops(n)[0] != loop && !sameStepLoop(p, n, loop) {
				return
			}
			if !assignedIn(p, rewrite.RootIdent(kept), loop) || !keptAcrossSteps(p, container, loop, n) {
				return
			}
			if kept.Type == "identifier" && rebindsDetached(p, kept) {
				return // `loss = loss.detach().cpu().numpy()` before: no graph left
			}
			if kept.Type == "identifier" && !backwardBinding(p, loop, kept) {
				// `loss.backward()` then `loss = loss.get_loss()` (a
				// float) before the total: not the tensor backpropagated
				// (blind sample S19Q's char-rnnlm, where .detach() raised
				// AttributeError).
				return
			}
			p.Report(kept, "`"+kept.Text()+"` still holds its autograd graph: keeping it across steps keeps every step's graph in memory; keep "+kept.Text()+".detach()",
				Fix(rewrite.Safe, "Keep "+kept.Text()+".detach()", rewrite.Edit{Start: kept.End, End: kept.End, New: ".detach()"}))
		})
	}
}

// sameStepLoop reports whether every loop between n and loop is not itself
// a training loop (n then runs once per step of loop, or more often).
func sameStepLoop(p *Pass, n, loop *rewrite.Node) bool {
	for _, l := range p.Model.EnclosingLoops(n) {
		if l == loop {
			return true
		}
		if p.Model.Loop(l).Trains() {
			return false
		}
	}
	return false
}

// backwardReceivers returns the names X of `X.backward()` and
// `scaler.scale(X).backward()` in the loop body (without retain_graph or
// create_graph, which keep the graph usable).
func backwardReceivers(p *Pass, loop *rewrite.Node) map[string]bool {
	out := map[string]bool{}
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if x := backwardReceiver(n); x != nil && (x.Type == "identifier" || lossAttribute(x)) {
			if rewrite.KeywordArg(n, "retain_graph") != nil || rewrite.KeywordArg(n, "create_graph") != nil || len(rewrite.PositionalArgs(n)) > 1 || rewrite.HasSplat(n) {
				out[x.Text()] = false
				return
			}
			if _, seen := out[x.Text()]; !seen {
				out[x.Text()] = true
			}
		}
	})
	return out
}

// backwardBinding reports whether the value kept reads the binding of its
// name that a `.backward()` of the loop was called on.
func backwardBinding(p *Pass, loop, kept *rewrite.Node) bool {
	want := p.Model.ReachingBinding(kept, kept)
	found := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if x := backwardReceiver(n); !found && x != nil && x.Type == "identifier" && x.Text() == kept.Text() {
			found = p.Model.ReachingBinding(x, x) == want
		}
	})
	return found
}

// lossAttribute reports `out.loss` of a name: the loss a Hugging Face
// model's output carries.
func lossAttribute(n *rewrite.Node) bool {
	return n.Type == "attribute" && n.ChildByField("object").Type == "identifier" && n.ChildByField("attribute").Text() == "loss"
}

// backwardReceiver returns X for a call `X.backward(...)`,
// `S.scale(X).backward(...)` or Accelerate's `accelerator.backward(X)`,
// nil otherwise.
func backwardReceiver(call *rewrite.Node) *rewrite.Node {
	if call.Type != "call" {
		return nil
	}
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" || fn.ChildByField("attribute").Text() != "backward" {
		return nil
	}
	if a := rewrite.PositionalArgs(call); len(a) == 1 && fn.ChildByField("object").Type == "identifier" && strings.Contains(strings.ToLower(fn.ChildByField("object").Text()), "accelerator") {
		return a[0]
	}
	x := fn.ChildByField("object")
	if x.Type == "call" {
		if sf := x.ChildByField("function"); sf.Type == "attribute" && sf.ChildByField("attribute").Text() == "scale" {
			if a := rewrite.PositionalArgs(x); len(a) == 1 {
				return a[0]
			}
		}
		return nil
	}
	return x
}

// assignedIn reports whether the name read at ident is bound by an
// assignment inside loop (a fresh value each step) and by nothing outside
// the loop in the same scope.
func assignedIn(p *Pass, ident, loop *rewrite.Node) bool {
	bs := p.Model.Bindings(ident)
	inside := false
	for _, b := range bs {
		if b.Stmt != nil && b.Stmt.Start >= loop.End && b.Kind == rewrite.AssignBinding && ident.Start >= loop.Start {
			continue // bound again after the loop (an evaluation's `output = model(x)`)
		}
		if !loop.Contains(b.Stmt) {
			return false
		}
		if b.Kind == rewrite.AssignBinding || b.Kind == rewrite.AugAssignBinding {
			inside = true
		}
	}
	return inside
}

// keptAcrossSteps reports whether container outlives one step of loop: a
// name bound only outside the loop, or an attribute/subscript of one.
func keptAcrossSteps(p *Pass, container, loop, site *rewrite.Node) bool {
	switch container.Type {
	case "identifier":
		bs := p.Model.Bindings(container)
		if len(bs) == 0 {
			return false
		}
		outside := false
		for _, b := range bs {
			switch {
			case b.Kind == rewrite.AugAssignBinding && b.Stmt.Contains(site):
				// the `total += loss` being checked
			case loop.Contains(b.Stmt) && periodicReset(p, b, loop):
				// `train_loss = 0` every logging_step steps: the graphs of
				// those steps are kept until then
			case loop.Contains(b.Stmt):
				return false
			case resetPerOptimizerStep(p, b, loop):
				// `batch_loss = torch.tensor(0.0)` before each optimizer
				// step's accumulation loop: the graphs of one step's
				// micro-batches are kept until the next (blind sample
				// S19C's mini_edm), not across steps.
				return false
			default:
				outside = true
			}
		}
		return outside
	case "attribute":
		return keptAcrossSteps(p, container.ChildByField("object"), loop, site)
	case "subscript":
		return keptAcrossSteps(p, container.ChildByField("value"), loop, site)
	}
	return false
}

// resetPerOptimizerStep reports a binding in a loop around loop, where
// loop steps no optimizer (a gradient accumulation's micro-batches) and
// the loop around it does, or where the loop around it walks the
// DataLoader while loop does not (whether or not loop steps):
// the name is reset once per optimizer step, or once per batch (a
// supernet step's sampled subnets, `loss_of_subnets = []` before them,
// stepped by an optimizer held on another object: blind sample S21J's
// once-for-all).
func resetPerOptimizerStep(p *Pass, b *rewrite.Binding, loop *rewrite.Node) bool {
	inner := p.Model.Loop(loop)
	if b.Stmt == nil {
		return false
	}
	for _, outer := range p.Model.EnclosingLoops(loop) {
		if outer.Contains(b.Stmt) {
			li := p.Model.Loop(outer)
			if (li.IteratesLoader || inner.OptimizerStep && stepsNamedOptimizer(outer, loop)) && !inner.IteratesLoader {
				// Reset once per batch (the loop around walks the loader,
				// or steps an optimizer of its own beside the inner
				// loop's, as a GAN's generator step): an inner loop of a
				// few repeats on that batch keeps their graphs until the
				// next batch, even when each repeat steps an optimizer
				// (`for _ in range(rep_discriminator)`, blind sample
				// S29F's MelGAN, whose loader is wrapped in tqdm).
				return true
			}
			return !inner.OptimizerStep && (li.OptimizerStep || stepsNamedOptimizer(outer, loop))
		}
	}
	return false
}

// stepsNamedOptimizer reports a `<...>.optimizer.step()` (any receiver
// whose last name mentions "optim") in outer but outside loop: an
// optimizer held by another object (`run_manager.optimizer`), which the
// loop facts do not resolve.
func stepsNamedOptimizer(outer, loop *rewrite.Node) bool {
	found := false
	outer.Walk(func(n *rewrite.Node) bool {
		if found || n == loop {
			return false
		}
		if n.Type == "call" && callAttr(n) == "step" {
			recv := n.ChildByField("function").ChildByField("object")
			last := recv
			if recv.Type == "attribute" {
				last = recv.ChildByField("attribute")
			}
			found = strings.Contains(strings.ToLower(last.Text()), "optim")
		}
		return !found
	})
	return found
}

// periodicReset reports a binding inside loop that resets a name to a
// number (`total = 0`, `loss_sum = acc = 0.0`) under an if that runs
// every few steps.
func periodicReset(p *Pass, b *rewrite.Binding, loop *rewrite.Node) bool {
	v := b.Value
	if v == nil && b.Stmt != nil && b.Stmt.Type == "assignment" {
		v = b.Stmt.ChildByField("right")
	}
	for v != nil && v.Type == "assignment" {
		v = v.ChildByField("right") // a = b = 0
	}
	if v == nil || !v.Is("integer", "float") {
		return false
	}
	ifs := b.Stmt.Ancestor("if_statement")
	if ifs == nil || !loop.Contains(ifs) {
		return false
	}
	body := ifs.ChildByField("consequence")
	return body != nil && body.Contains(b.Stmt) && everyFewSteps(p.Model, loop, body)
}

// rebindsDetached reports a name whose value where it is read comes from
// an assignment that leaves no graph: `.detach()`, `.item()`, `.numpy()`,
// `.tolist()` at the end of its chain, or float()/int() of it (blind
// sample II: powerful-gnns turns its loss into a NumPy array before
// summing it; `.detach()` on that array raised AttributeError), also as
// one element of a parallel assignment (`loss, acc = loss.item(),
// acc.item()`: blind sample S17B's dc-tts, where the safe fix raised).
func rebindsDetached(p *Pass, ident *rewrite.Node) bool {
	v := rewrite.AssignedValue(p.Model.ReachingBinding(ident, ident))
	if v == nil || v.Type != "call" {
		return false
	}
	switch q := p.Model.CalleeName(v); q {
	case "float", "int", "numpy.asarray", "numpy.array":
		return true
	}
	for e := v; e != nil && e.Type == "call"; {
		fn := e.ChildByField("function")
		if fn == nil || fn.Type != "attribute" {
			return false
		}
		switch fn.ChildByField("attribute").Text() {
		case "detach", "item", "numpy", "tolist", "data":
			return true
		}
		e = fn.ChildByField("object")
	}
	return false
}

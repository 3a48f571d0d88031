package patterns

import (
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// checkReturnedItems reports a training step function of this file that
// returns its loss as a number (`return loss.item()`) and is called on
// every step of a loop that only accumulates the number, appends it to a
// list the loop does not read, reads it every few steps, or drops it: the
// step waits for the GPU to hand over a value the loop needs later or
// never (blind samples' `train_step(...)` helpers and trainer methods).
// A hint at the `.item()`: returning the detached tensor changes what
// every caller receives, which is the author's edit. Silent where the
// step waits anyway (another sync in the function or the loop), in
// launch-bound loops and over batches left on the host, as the other
// SYNC002 findings are.
func checkReturnedItems(p *Pass) {
	m := p.Model
	reported := map[*rewrite.Node]bool{}
	items := map[*rewrite.Node]*rewrite.Node{} // returnedItem per def, read once
	for _, call := range p.File.OfType("call") {
		def := m.CalledDef(call)
		if def == nil || def.Type != "function_definition" || reported[def] {
			continue
		}
		item, seen := items[def]
		if !seen {
			item = returnedItem(m, def)
			items[def] = item
		}
		if item == nil {
			continue
		}
		loops := m.EnclosingLoops(call)
		if len(loops) == 0 || def.Contains(call) {
			continue
		}
		loop := loops[0]
		if !m.Loop(loop).Hot() || !m.Loop(loop).Trains() || everyFewSteps(m, loop, call) || periodicLoop(p, loops) || holdsTrainingLoop(m, loop) {
			continue
		}
		use, ok := deferredUse(m, loop, call)
		if !ok {
			continue
		}
		skip := func(n *rewrite.Node) bool { return n == call || deferrableItem(m, loop, n) }
		if stepSyncsExcept(m, loop, skip) || launchBoundLoop(p, loop) || hostBatchLoop(p, loop) {
			continue
		}
		reported[def] = true
		p.Report(item, ".item() returned by this training step synchronises with the GPU on every call, but the loop at line "+
			strconv.Itoa(p.File.Src.LineOf(loop.Start)+1)+" that calls it "+use+
			": return "+detached(syncedValue(item))+" and call .item() where the value is read, by hand (every caller then receives a tensor)."+sync002Pays, nil)
	}
}

// returnedItem returns the `X.item()` that a training step function
// returns: the function computes gradients outside any loop of its own
// (one step, not an epoch), its only value-returning statement returns
// `X.item()`, and nothing else in it synchronises with the GPU (another
// `.item()`, a copy to the host, a tensor's truth tested, a function of
// this file that does). Nil otherwise.
func returnedItem(m *rewrite.Model, def *rewrite.Node) *rewrite.Node {
	body := def.ChildByField("body")
	if body == nil || !computesGradients(m, body, false) {
		return nil
	}
	var item *rewrite.Node
	loops, returns := false, 0
	body.Walk(func(n *rewrite.Node) bool {
		if rewrite.IsDefOrLambda(n) {
			return false
		}
		switch n.Type {
		case "for_statement", "while_statement":
			loops = true
		case "return_statement":
			if kids := n.NamedChildren(); len(kids) == 1 {
				returns++
				if isItemCall(kids[0]) {
					item = kids[0]
				}
			}
		}
		return !loops
	})
	if loops || returns != 1 || item == nil || syncsBesides(m, def, item) {
		return nil
	}
	return item
}

// syncsBesides reports a function whose body synchronises with the GPU
// other than through item: `.item()`, `.tolist()`, `.cpu()`, `.numpy()`,
// a torch tensor's truth tested, or a function of this file that does.
func syncsBesides(m *rewrite.Model, def, item *rewrite.Node) bool {
	syncs := false
	def.ChildByField("body").Walk(func(n *rewrite.Node) bool {
		if syncs || rewrite.IsDefOrLambda(n) {
			return false
		}
		if n.Is("if_statement", "while_statement") && torchTruthTest(m, n.ChildByField("condition")) {
			syncs = true
		}
		if n.Type == "call" && n != item {
			switch callAttr(n) {
			case "item", "tolist", "cpu", "numpy":
				syncs = true
			}
			if fm, inner := calledFunction(m, n); !syncs && fm == m && inner != nil && inner != def {
				syncs = defSyncs(m, inner, 1)
			}
		}
		return !syncs
	})
	return syncs
}

// deferredUse says what the loop does with the number a call returns when
// that use needs it only later or never: "drops it", "accumulates it" (a
// `total += ...` whose total the loop reads only every few steps),
// "appends it to a list" (one the loop does not read), "reads it every
// few steps" (a name whose reads in the loop sit under `if step % N ==
// 0:`). ok is false for any other use: a read on every step (a progress
// bar, a comparison), which needs the number there.
func deferredUse(m *rewrite.Model, loop, call *rewrite.Node) (use string, ok bool) {
	parent := call.Parent
	if parent == nil {
		return "", false
	}
	switch parent.Type {
	case "expression_statement":
		return "drops it", true
	case "augmented_assignment":
		if total := parent.ChildByField("left"); parent.ChildByField("right") == call && total != nil && total.Type == "identifier" && readsOnlyPeriodically(m, loop, total, parent) {
			return "accumulates it", true
		}
	case "argument_list":
		if appended(m, loop, call) {
			return "appends it to a list", true
		}
	case "assignment":
		v := parent.ChildByField("left")
		if parent.ChildByField("right") != call || v == nil || v.Type != "identifier" {
			return "", false
		}
		s := m.VarScope(v)
		if s == nil {
			return "", false
		}
		uses := map[string]bool{}
		for _, r := range m.Reads(s, v.Text(), loop) {
			switch {
			case r.Start < parent.End:
				return "", false // read before it is bound, on the next step
			case periodicGuard(m, loop, r, v.Text()) != nil:
				uses["reads it every few steps"] = true
			case r.Parent != nil && r.Parent.Type == "augmented_assignment" && r.Parent.ChildByField("right") == r:
				total := r.Parent.ChildByField("left")
				if total == nil || total.Type != "identifier" || !readsOnlyPeriodically(m, loop, total, r.Parent) {
					return "", false
				}
				uses["accumulates it"] = true
			case r.Parent != nil && r.Parent.Type == "argument_list" && appended(m, loop, r):
				uses["appends it to a list"] = true
			default:
				return "", false
			}
		}
		switch len(uses) {
		case 0:
			return "drops it", true
		case 1:
			for u := range uses {
				return u, true
			}
		}
		return "reads it only later", true
	}
	return "", false
}

// readsOnlyPeriodically reports a running total whose reads in the loop,
// other than its own accumulation aug, all sit under logging every few
// steps (periodicGuard).
func readsOnlyPeriodically(m *rewrite.Model, loop, total, aug *rewrite.Node) bool {
	s := m.VarScope(total)
	if s == nil {
		return false
	}
	for _, r := range m.Reads(s, total.Text(), loop) {
		if !aug.Contains(r) && periodicGuard(m, loop, r, total.Text()) == nil {
			return false
		}
	}
	return true
}

// appended reports n as the one argument of `acc.append(n)`, a statement
// of its own, whose list the loop does not read.
func appended(m *rewrite.Model, loop, n *rewrite.Node) bool {
	args := n.Parent
	call := args.Parent
	if call == nil || callAttr(call) != "append" || len(rewrite.PositionalArgs(call)) != 1 || call.Parent == nil || call.Parent.Type != "expression_statement" {
		return false
	}
	acc := call.ChildByField("function").ChildByField("object")
	return acc.Type == "identifier" && !readInLoop(m, acc, loop, true)
}

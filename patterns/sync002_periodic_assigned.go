package patterns

import (
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// checkPeriodicAssignedItem reports `v = X.item()` on every step of a
// training loop whose reads of v after it all sit under logging every few
// steps (`if step % 50 == 0: print(v)`): the step waits for the GPU to
// hand over a number that is used once in fifty (blind samples S27F's
// SimCSE `loss = loss.item()` and S28C's `cur_loss = loss.item()`). A
// hint: moving the .item() to the read is the author's edit (the read
// then needs the tensor, kept under its own name). Silent where the step
// waits anyway (another sync the rule does not defer), in launch-bound
// loops, and over batches left on the host.
func checkPeriodicAssignedItem(p *Pass) {
	m := p.Model
	for _, asg := range p.File.OfType("assignment") {
		left, right := asg.ChildByField("left"), asg.ChildByField("right")
		if left == nil || right == nil || left.Type != "identifier" || !isItemCall(right) {
			continue
		}
		loops := m.EnclosingLoops(asg)
		if len(loops) == 0 || !m.Loop(loops[0]).Hot() || !m.Loop(loops[0]).Trains() || everyFewSteps(m, loops[0], asg) {
			continue
		}
		loop := loops[0]
		s := m.VarScope(left)
		if s == nil {
			continue
		}
		var guard *rewrite.Node
		periodic := true
		for _, r := range m.Reads(s, left.Text(), loop) {
			if r.Start < asg.End {
				continue // (`loss.backward()` reads the tensor before it is rebound)
			}
			g := periodicGuard(m, loop, r, left.Text())
			if g == nil {
				periodic = false
				break
			}
			guard = g
		}
		if !periodic || guard == nil {
			continue
		}
		if stepSyncsExcept(m, loop, func(n *rewrite.Node) bool { return n == right || deferrableItem(m, loop, n) }) || launchBoundLoop(p, loop) || hostBatchLoop(p, loop) {
			continue
		}
		p.Report(right, ".item() on every step synchronises with the GPU, but "+left.Text()+" is only read every few steps (line "+
			strconv.Itoa(p.File.Src.LineOf(guard.Start)+1)+"): keep the tensor (detached) and call .item() there, by hand."+sync002Pays, nil)
	}
}

package patterns

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// checkMeterItems reports `losses.update(loss.item(), n)` on every step of
// a training loop: the AverageMeter idiom of research code (blind samples
// S21C's FedNova, S21E's DM-Count, CSRNet and FastFlow labelled it; the
// `+=` and `.append` forms alone missed it). A hint without a fix: the
// meter's class decides whether it can hold a device tensor.
//
// Silent where removing these waits would not free the step: the loop
// synchronises otherwise on every step (another `.item()`, `.cpu()`, a
// function that copies), reads a meter on every step (`pbar.set_postfix(
// loss=losses.avg)`), or is launch-bound or fed from the host.
func checkMeterItems(p *Pass) {
	m := p.Model
	byLoop := map[*rewrite.Node][]*rewrite.Node{}
	var order []*rewrite.Node
	calls := append(p.File.MethodCalls("update"), p.File.MethodCalls("add")...)
	for _, call := range calls {
		for _, item := range meterItems(call) {
			loops := m.EnclosingLoops(call)
			if len(loops) == 0 || !m.Loop(loops[0]).Trains() || everyFewSteps(m, loops[0], call) {
				continue
			}
			value := item.ChildByField("function").ChildByField("object")
			if hostOperand(value) || onLoaderHost(p, value) {
				continue
			}
			if _, seen := byLoop[loops[0]]; !seen {
				order = append(order, loops[0])
			}
			byLoop[loops[0]] = append(byLoop[loops[0]], item)
		}
	}
	for _, loop := range order {
		items := byLoop[loop]
		if meterStepSyncs(m, loop, items) || meterReadEveryStep(m, loop, items) || launchBoundLoop(p, loop) || hostBatchLoop(p, loop) {
			continue
		}
		var lines []string
		seen := map[*rewrite.Node]bool{}
		for _, it := range items {
			if call := meterCall(it); !seen[call] {
				seen[call] = true
				lines = append(lines, strconv.Itoa(p.File.Src.LineOf(it.Start)+1))
			}
		}
		all := ""
		if len(lines) > 1 {
			all = " It pays once all " + strconv.Itoa(len(lines)) + " meter updates of this step (lines " + strings.Join(lines, ", ") + ") pass tensors."
		}
		reported := map[*rewrite.Node]bool{}
		for _, it := range items {
			call := meterCall(it)
			if reported[call] {
				continue // one finding for a dict of values handed to one meter
			}
			reported[call] = true
			value := it.ChildByField("function").ChildByField("object").Text() + ".detach()"
			if others := countItemsIn(items, call) - 1; others > 0 {
				value += " (and likewise the dict's other " + strconv.Itoa(others) + " .item() values)"
			}
			p.Report(it, ".item() handed to a meter on every step synchronises with the GPU: pass "+value+
				" (a meter that sums val * n keeps it on the device) and call .item() where the meter is printed, by hand."+all+sync002Pays, nil)
		}
	}
}

// meterItems returns the `X.item()` calls handed to a meter in a
// statement of its own whose receiver is a name, an attribute or a
// subscript (`meters["loss"]`): the first argument of `meter.update(
// X.item(), ...)`, or the values of a dict literal given to `update` or
// `add` (`avg_meter.add({"loss1": loss.item(), "loss2": aux.item()})`,
// the meters of IRN, SEAM and CCAM: blind sample S24D). A progress bar's
// `update(1)` or a set's `add(x)` take no .item().
func meterItems(call *rewrite.Node) []*rewrite.Node {
	if call.Parent == nil || call.Parent.Type != "expression_statement" {
		return nil
	}
	recv := call.ChildByField("function").ChildByField("object")
	if recv == nil || !recv.Is("identifier", "attribute", "subscript") {
		return nil
	}
	args := rewrite.PositionalArgs(call)
	if len(args) == 0 || len(args) > 2 {
		return nil
	}
	isItem := isItemCall
	if len(args) == 1 && args[0].Type == "dictionary" {
		var items []*rewrite.Node
		for _, pair := range args[0].NamedChildren() {
			if v := pair.ChildByField("value"); pair.Type == "pair" && v != nil && isItem(v) {
				items = append(items, v)
			}
		}
		return items
	}
	if callAttr(call) != "update" || !isItem(args[0]) {
		return nil
	}
	return []*rewrite.Node{args[0]}
}

// countItemsIn counts the items handed to the meter call call.
func countItemsIn(items []*rewrite.Node, call *rewrite.Node) int {
	n := 0
	for _, it := range items {
		if meterCall(it) == call {
			n++
		}
	}
	return n
}

// meterCall returns the meter call an item of meterItems sits in.
func meterCall(item *rewrite.Node) *rewrite.Node {
	return item.Ancestor("call")
}

// meterStepSyncs reports a loop whose step synchronises with the GPU
// through something other than the meters' .item() calls.
func meterStepSyncs(m *rewrite.Model, loop *rewrite.Node, items []*rewrite.Node) bool {
	return stepSyncsExcept(m, loop, func(n *rewrite.Node) bool { return slices.Contains(items, n) || deferrableItem(m, loop, n) })
}

// meterReadEveryStep reports a meter the loop reads on every step besides
// updating it (`pbar.set_postfix(loss=losses.avg)`, `print(losses.val)`):
// holding a device tensor, the meter would make that read wait instead.
func meterReadEveryStep(m *rewrite.Model, loop *rewrite.Node, items []*rewrite.Node) bool {
	updates := map[*rewrite.Node]bool{}
	meters := map[string]bool{}
	for _, it := range items {
		recv := meterCall(it).ChildByField("function").ChildByField("object")
		updates[recv] = true
		meters[recv.Text()] = true
	}
	read := false
	walkLoopBodyUntil(m, loop, func(n *rewrite.Node) bool {
		if !n.Is("identifier", "attribute", "subscript") || !meters[n.Text()] || updates[n] || everyFewSteps(m, loop, n) {
			return true
		}
		read = true
		return false
	})
	return read
}

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
	for _, call := range p.File.MethodCalls("update") {
		item := meterItem(call)
		if item == nil {
			continue
		}
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
	for _, loop := range order {
		items := byLoop[loop]
		if meterStepSyncs(m, loop, items) || meterReadEveryStep(m, loop, items) || launchBoundLoop(p, loop) || hostBatchLoop(p, loop) {
			continue
		}
		var lines []string
		for _, it := range items {
			lines = append(lines, strconv.Itoa(p.File.Src.LineOf(it.Start)+1))
		}
		all := ""
		if len(items) > 1 {
			all = " It pays once all " + strconv.Itoa(len(items)) + " meter updates of this step (lines " + strings.Join(lines, ", ") + ") pass tensors."
		}
		for _, it := range items {
			value := it.ChildByField("function").ChildByField("object").Text()
			p.Report(it, ".item() handed to a meter on every step synchronises with the GPU: pass "+value+
				".detach() (a meter that sums val * n keeps it on the device) and call .item() where the meter is printed, by hand."+all+sync002Pays, nil)
		}
	}
}

// meterItem returns the `X.item()` handed as the first argument of
// `meter.update(X.item(), ...)`, a statement of its own whose receiver is a
// name, an attribute or a subscript (`meters["loss"]`). A progress bar's
// `update(1)` or a dict's `update({...})` take no .item().
func meterItem(call *rewrite.Node) *rewrite.Node {
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
	item := args[0]
	fn := item.ChildByField("function")
	if item.Type != "call" || fn == nil || fn.Type != "attribute" || fn.ChildByField("attribute").Text() != "item" {
		return nil
	}
	return item
}

// meterStepSyncs reports a loop whose step synchronises with the GPU
// through something other than the meters' .item() calls.
func meterStepSyncs(m *rewrite.Model, loop *rewrite.Node, items []*rewrite.Node) bool {
	return stepSyncsExcept(m, loop, func(n *rewrite.Node) bool { return slices.Contains(items, n) })
}

// meterReadEveryStep reports a meter the loop reads on every step besides
// updating it (`pbar.set_postfix(loss=losses.avg)`, `print(losses.val)`):
// holding a device tensor, the meter would make that read wait instead.
func meterReadEveryStep(m *rewrite.Model, loop *rewrite.Node, items []*rewrite.Node) bool {
	updates := map[*rewrite.Node]bool{}
	meters := map[string]bool{}
	for _, it := range items {
		recv := it.Parent.Parent.ChildByField("function").ChildByField("object")
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

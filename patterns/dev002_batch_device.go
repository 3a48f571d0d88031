package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// BatchDevice is DEV002.
var BatchDevice = &Rule{
	Code:      "DEV002",
	Name:      "batches-left-on-cpu",
	Title:     "Move the loop's batches to the device the model was moved to",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Error,
	Libraries: []string{"torch"},
	Names:     []string{"DataLoader"}, // batchLoopOf needs a torch DataLoader(...) call, spelled DataLoader
	Check:     checkBatchDevice,
}

func init() { Register(BatchDevice) }

func checkBatchDevice(p *Pass) {
	if p.Model.StarImport || placingFramework(p) {
		return
	}
	for _, loop := range p.File.OfType("for_statement") {
		bl, ok := batchLoopOf(p, loop)
		if !ok || !datasetOnCPU(p, bl.Loader) {
			continue
		}
		checkBatchLoopDevice(p, bl)
	}
}

// checkBatchLoopDevice reports one loop whose batches reach a model on the
// GPU without being moved.
func checkBatchLoopDevice(p *Pass, bl batchLoop) {
	var gpuMove *rewrite.Node // the call that moved a model fed by a batch
	var unmoved []string
	var toCPU []*rewrite.Node // `.to("cpu")` / `.cpu()` calls on batches
	for _, t := range bl.Targets {
		tensor := false
		var cpuMoves []*rewrite.Node
		for _, r := range bodyReads(p, bl.Loop, t) {
			switch classifyBatchUse(p, r, len(bl.Targets) == 1) {
			case useOpaque, useStructured:
				return
			case useMove:
				call := moveCallOf(p, r)
				if !movesToCPU(p, call) {
					return // moved somewhere: not this rule's business
				}
				cpuMoves = append(cpuMoves, call)
				if mv := feedsGPUModel(p, call); mv != nil {
					gpuMove = mv
				}
				tensor = true
			case useTensor:
				tensor = true
				if mv := feedsGPUModel(p, r); mv != nil {
					gpuMove = mv
				}
			}
		}
		rebinds := reboundInBody(p, bl.Loop, t)
		switch {
		case len(cpuMoves) > 0:
			// Only `t = t.to("cpu")` (each rebinding one of those moves).
			if len(rebinds) != len(cpuMoves) {
				return
			}
			for _, c := range cpuMoves {
				if !rebindsItself(c, t.Text()) {
					return
				}
			}
			toCPU = append(toCPU, cpuMoves...)
		case len(rebinds) > 0:
			return
		case tensor:
			unmoved = append(unmoved, t.Text())
		}
	}
	if gpuMove == nil || (len(unmoved) == 0 && len(toCPU) == 0) {
		return
	}
	fix := batchDeviceFix(p, bl, gpuMove, unmoved, toCPU)
	left := bl.Loop.ChildByField("left")
	p.Report(left, "the model is on the GPU but these batches stay on the CPU: the forward pass fails with a device mismatch", fix)
}

// movesToCPU reports `.cpu()` or `.to(<a CPU device>)`.
func movesToCPU(p *Pass, call *rewrite.Node) bool {
	if callAttr(call) == "cpu" && len(rewrite.PositionalArgs(call)) == 0 && !rewrite.HasSplat(call) {
		return true
	}
	return callAttr(call) == "to" && p.Model.MoveKind(call) == rewrite.DeviceOther
}

// rebindsItself reports a statement `name = name.<move>(...)` whose value
// is call.
func rebindsItself(call *rewrite.Node, name string) bool {
	a := call.Parent
	if a == nil || a.Type != "assignment" || a.ChildByField("right") != call {
		return false
	}
	l := a.ChildByField("left")
	return l != nil && l.Type == "identifier" && l.Text() == name &&
		a.Parent != nil && a.Parent.Type == "expression_statement"
}

// feedsGPUModel returns the move call that put a model on a CUDA device when
// expr (through tensor methods) is an argument of a call of that model.
func feedsGPUModel(p *Pass, expr *rewrite.Node) *rewrite.Node {
	call := argumentOf(tensorChainTop(expr))
	if call == nil {
		return nil
	}
	fn := call.ChildByField("function")
	if !isModel(p, fn) {
		return nil
	}
	switch k, mv := p.Model.ModuleMove(fn, call); k {
	case rewrite.DeviceCUDA, rewrite.DeviceMaybeCUDA:
		if !movedElsewhere(p, fn) {
			return mv
		}
	}
	return nil
}

// movedElsewhere reports a move of the model named by ident anywhere in the
// file to something other than CUDA (`model.cpu()`, `model.to(dev)` with an
// unknown dev): its device at the loop is then not certain.
func movedElsewhere(p *Pass, ident *rewrite.Node) bool {
	for _, b := range p.Model.Bindings(ident) {
		for _, use := range b.Uses {
			attr := use.Parent
			if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != use ||
				attr.Parent == nil || attr.Parent.Type != "call" || !moveMethods[callAttr(attr.Parent)] {
				continue
			}
			if k := p.Model.MoveKind(attr.Parent); k != rewrite.DeviceCUDA && k != rewrite.DeviceMaybeCUDA {
				return true
			}
		}
	}
	return false
}

// batchDeviceFix moves the unmoved batch names at the top of the loop body
// and redirects CPU moves, to the model's device. nil when the model's
// device expression cannot be written in the loop.
func batchDeviceFix(p *Pass, bl batchLoop, gpuMove *rewrite.Node, unmoved []string, toCPU []*rewrite.Node) *rewrite.Fix {
	move := "cuda()"
	if callAttr(gpuMove) == "cuda" {
		if dev, _, _ := p.Model.MoveTarget(gpuMove); dev != nil {
			if !p.Model.SameMeaningAt(dev, bl.Loop) {
				return nil
			}
			move = "cuda(" + dev.Text() + ")"
		}
	} else {
		dev, _, _ := p.Model.MoveTarget(gpuMove)
		if dev == nil || !p.Model.SameMeaningAt(dev, bl.Loop) || strings.Contains(dev.Text(), "\n") {
			return nil
		}
		move = "to(" + dev.Text() + ")"
	}
	var edits []rewrite.Edit
	if len(unmoved) > 0 {
		body := rewrite.Statements(rewrite.LoopBody(bl.Loop))
		if len(body) == 0 {
			return nil
		}
		e, ok := rewrite.InsertBeforeEdit(body[0], moveStatement(unmoved, move))
		if !ok {
			return nil
		}
		edits = append(edits, e)
	}
	for _, c := range toCPU {
		attr := c.ChildByField("function").ChildByField("attribute")
		edits = append(edits, rewrite.Edit{Start: attr.Start, End: c.End, New: move})
	}
	return Fix(rewrite.Unsafe, "Move the batches to the model's device", edits...)
}

// datasetOnCPU reports that the loader's batches are certainly built on the
// CPU: no collate_fn, and a dataset gpuopt can see into that never
// mentions a device (a torchvision dataset, a TensorDataset of tensors
// created by torch without a device, or a Dataset class of this file).
func datasetOnCPU(p *Pass, loader *rewrite.Binding) bool {
	call := loader.Value
	if rewrite.HasSplat(call) || mentionsDevice(call) {
		return false
	}
	if cf := rewrite.KeywordValue(call, "collate_fn"); cf != nil && cf.Type != "none" {
		return false
	}
	ds := rewrite.Arg(call, 0, "dataset")
	if ds != nil && ds.Type == "identifier" {
		ds = p.Model.ValueOf(ds)
	}
	if ds == nil || ds.Type != "call" || rewrite.HasSplat(ds) || mentionsDevice(ds) {
		return false
	}
	q := p.Model.CalleeName(ds)
	switch {
	case strings.HasPrefix(q, "torchvision.datasets."):
		return true
	case q == "torch.utils.data.TensorDataset" || q == "torch.utils.data.dataset.TensorDataset":
		for _, a := range rewrite.PositionalArgs(ds) {
			if !cpuTensor(p, a, 0) {
				return false
			}
		}
		return len(rewrite.PositionalArgs(ds)) > 0
	}
	fn := ds.ChildByField("function")
	if fn == nil || fn.Type != "identifier" {
		return false
	}
	b := p.Model.Binding(fn)
	if b == nil || b.Kind != rewrite.ClassBinding || mentionsDevice(b.Stmt) {
		return false
	}
	return true
}

// cpuTensor reports a tensor built by torch on the CPU: a torch call (or a
// name assigned one once), possibly followed by tensor methods, with no
// device in sight.
func cpuTensor(p *Pass, n *rewrite.Node, depth int) bool {
	if n == nil || depth > 4 || mentionsDevice(n) {
		return false
	}
	switch n.Type {
	case "identifier":
		return cpuTensor(p, p.Model.ValueOf(n), depth+1)
	case "call":
		if q := p.Model.CalleeName(n); strings.HasPrefix(q, "torch.") && q != "torch.load" {
			return p.Model.IsTensorExpr(n)
		}
		fn := n.ChildByField("function")
		if fn != nil && fn.Type == "attribute" {
			return cpuTensor(p, fn.ChildByField("object"), depth+1)
		}
	}
	return false
}

package patterns

import (
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// hostMatrixPays is what XFER001 says of a dense matrix built with NumPy
// on the host every step, measured by corpus/gpu/xfer001_dense_targets.py
// (.notes/xfer001-dense-targets-h200.txt).
const hostMatrixPays = "; a TuckER-like step at batch 128 ran 2.67× faster with 14,541 columns and 5.34× with 40,943 on an H200 (torch 2.11): it pays when the matrix is large (thousands of columns), not for a few dozen"

// hostTensorConstructors turn a NumPy array into a CPU tensor (a copy or a
// view of the host array).
var hostTensorConstructors = map[string]bool{
	"torch.FloatTensor": true, "torch.Tensor": true, "torch.from_numpy": true, "torch.tensor": true,
	"torch.as_tensor": true, "torch.DoubleTensor": true, "torch.LongTensor": true,
}

// checkHostMatrix reports `m = np.zeros((rows, cols))` of two or more
// dimensions not all written as literals, made on every step, that the
// code then turns into a tensor and copies to the GPU (the 1-N targets of
// ConvE, TuckER and HypER: `targets = np.zeros((len(batch),
// len(d.entities)))`, a one per true entity, `torch.FloatTensor(targets)
// .cuda()`: blind sample S27C). The matrix is made, filled and copied on
// the host each step; torch.zeros(..., device=...) and an indexed
// assignment make it on the GPU. A hint: the filling code is NumPy's, and
// its rewrite (index tensors of the rows and columns) is the user's.
func checkHostMatrix(p *Pass) {
	m := p.Model
	for _, zeros := range m.CallsTo("numpy.zeros") {
		asg := zeros.Parent
		if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != zeros {
			continue
		}
		name := asg.ChildByField("left")
		if name == nil || name.Type != "identifier" || !computedShape(rewrite.Arg(zeros, 0, "shape")) {
			continue
		}
		move := copiedToGPU(p, name, asg)
		if move == nil || !hostMatrixPerStep(m, zeros) || filledFromData(m, name, asg) {
			continue
		}
		shape := strings.Join(strings.Fields(rewrite.Arg(zeros, 0, "shape").Text()), " ")
		p.Report(zeros, "np.zeros("+shape+") builds a dense matrix on the host on every step, which line "+
			strconv.Itoa(p.File.Src.LineOf(move.Start)+1)+" copies to the GPU: make it there with torch.zeros(..., device=...) and set its entries with index tensors of the rows and columns"+hostMatrixPays, nil)
	}
}

// filledFromData reports a matrix some of whose entries are assigned
// values that are not constants (`X[i, :l] = coords`), or constants by
// slices (its padding mask, `mask[i, :l] = 1.0`): a padded batch of real data, which must cross to the
// GPU whatever builds it, not a one-hot target of ones set by index
// (blind sample S33I's ProteinMPNN and Struct2Seq featurizers: six
// findings judged false).
func filledFromData(m *rewrite.Model, name, asg *rewrite.Node) bool {
	fn := enclosingFunction(asg)
	if fn == nil {
		return false
	}
	for _, r := range m.Reads(m.VarScope(name), name.Text(), fn) {
		sub := r.Parent
		if r.Start < asg.End || sub == nil || sub.Type != "subscript" || sub.ChildByField("value") != r {
			continue
		}
		write := sub.Parent
		if write == nil || !write.Is("assignment", "augmented_assignment") || write.ChildByField("left") != sub {
			continue
		}
		if !numericConstant(write.ChildByField("right")) {
			return true
		}
		for _, c := range sub.NamedChildren()[1:] {
			if c.Type == "slice" {
				return true // `mask[i, :l] = 1.0`: the padding mask of those rows
			}
		}
	}
	return false
}

// numericConstant reports a number or boolean literal, or a negated one.
func numericConstant(n *rewrite.Node) bool {
	for n != nil && n.Type == "unary_operator" {
		n = n.ChildByField("argument")
	}
	return n != nil && n.Is("integer", "float", "true", "false")
}

// computedShape reports a shape tuple or list of two or more dimensions,
// one at least not an integer literal (`(len(batch), len(d.entities))`):
// a matrix whose size the data decides, not a small constant block.
func computedShape(shape *rewrite.Node) bool {
	if shape == nil || !shape.Is("tuple", "list") {
		return false
	}
	dims := 0
	computed := false
	for _, c := range shape.NamedChildren() {
		if c.Type == "comment" {
			continue
		}
		dims++
		if c.Type != "integer" {
			computed = true
		}
	}
	return dims >= 2 && computed
}

// copiedToGPU returns the move that copies the tensor made from the
// array bound to name at asg to the GPU (`torch.FloatTensor(a).cuda()`,
// `torch.from_numpy(a).float().to(device)`, or the tensor bound to a name
// and moved later, `t = torch.FloatTensor(a)` then `t = t.cuda()`), nil
// when there is none.
func copiedToGPU(p *Pass, name, asg *rewrite.Node) *rewrite.Node {
	m := p.Model
	s := m.VarScope(name)
	fn := enclosingFunction(asg)
	if s == nil || fn == nil {
		return nil
	}
	for _, r := range m.Reads(s, name.Text(), fn) {
		if r.Start < asg.End || r.Parent == nil || r.Parent.Type != "argument_list" {
			continue
		}
		ctor := r.Parent.Parent
		if ctor == nil || ctor.Type != "call" || !hostTensorConstructors[m.CalleeName(ctor)] || rewrite.Arg(ctor, 0, "data") != r {
			continue
		}
		if mv := movedFrom(p, ctor); mv != nil {
			return mv
		}
		// `t = torch.FloatTensor(a)`, then `t = t.cuda()` (under `if
		// self.cuda:`) or `t.to(device)` further down.
		bind := ctor.Parent
		if bind == nil || bind.Type != "assignment" || bind.ChildByField("right") != ctor || bind.ChildByField("left").Type != "identifier" {
			continue
		}
		t := bind.ChildByField("left")
		for _, u := range m.Reads(m.VarScope(t), t.Text(), fn) {
			if u.Start < bind.End {
				continue
			}
			if mv := movedFrom(p, u); mv != nil {
				return mv
			}
		}
	}
	return nil
}

// movedFrom returns the move of e to a GPU (`.cuda()`, `.to(device)`),
// through dtype conversions (`.float()`), nil when e is not moved so.
func movedFrom(p *Pass, e *rewrite.Node) *rewrite.Node {
	for e.Parent != nil && e.Parent.Type == "attribute" && e.Parent.ChildByField("object") == e && e.Parent.Parent != nil && e.Parent.Parent.Type == "call" {
		call := e.Parent.Parent
		if dev, ok, obj := p.Model.MoveTarget(call); ok && obj == e {
			if dev != nil && p.Model.DeviceOf(dev) == rewrite.DeviceOther {
				return nil // to the CPU or MPS: no copy to a GPU
			}
			return call
		}
		if !dtypeMethods[callAttr(call)] {
			return nil
		}
		e = call
	}
	return nil
}

// hostMatrixPerStep reports a matrix made on every step: in a loop that
// runs per step (perStep), or in a function whose callers run per step
// (the batch helper that a training loop and an evaluation loop call),
// its own loops (the one that fills the rows) notwithstanding.
func hostMatrixPerStep(m *rewrite.Model, zeros *rewrite.Node) bool {
	if len(m.EnclosingLoops(zeros)) > 0 {
		return perStep(m, zeros, 0)
	}
	fn := enclosingFunction(zeros)
	if fn == nil || fn.ChildByField("name").Text() == "__init__" {
		return false
	}
	sites, foreign := m.CallSites(fn), m.ForeignCallSites(fn)
	if len(sites) == 0 && len(foreign) == 0 {
		return false // called from nowhere gpuopt sees: not shown to be a step
	}
	return anyPerStep(m, sites, foreign, 1)
}

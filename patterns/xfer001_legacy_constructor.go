package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// legacyTensorTypes are the typed constructors of old PyTorch code
// (`torch.FloatTensor(B, 13, H, W)`), by the dtype torch.zeros and
// torch.full need to give the same tensor.
var legacyTensorTypes = map[string]string{
	"FloatTensor": "torch.float", "DoubleTensor": "torch.double", "HalfTensor": "torch.half",
	"LongTensor": "torch.long", "IntTensor": "torch.int", "ShortTensor": "torch.short",
	"ByteTensor": "torch.uint8", "BoolTensor": "torch.bool",
}

// legacyFactory reads `torch.FloatTensor(sizes...).zero_()` and
// `torch.FloatTensor(sizes...).fill_(v)`, the pre-0.4 spelling of
// torch.zeros and torch.full (blind sample S26D's HR-VITON builds a
// 13×1024×768 one-hot buffer so on the CPU and copies it every step). It
// returns the constructor call (whose positional arguments are the size),
// the factory it amounts to ("zeros" or "full") and its text with device=
// dev, in the file's spelling of the torch module; ok is false for any
// other call, and for a constructor given data (a list, an array: one
// argument that is no size).
func legacyFactory(p *Pass, call *rewrite.Node, dev string) (ctor *rewrite.Node, name, text string, ok bool) {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return nil, "", "", false
	}
	init := fn.ChildByField("attribute").Text()
	args := rewrite.PositionalArgs(call)
	switch {
	case init == "zero_" && len(call.ChildByField("arguments").NamedChildren()) == 0:
		name = "zeros"
	case init == "fill_" && len(args) == 1 && len(call.ChildByField("arguments").NamedChildren()) == 1 && plainNumber(args[0]):
		name = "full"
	case (init == "uniform_" || init == "normal_") && !rewrite.HasSplat(call) && rewrite.KeywordArg(call, "generator") == nil:
		name = init // random numbers drawn in place: built empty on the device, drawn there
	default:
		return nil, "", "", false
	}
	ctor = fn.ChildByField("object")
	if ctor.Type != "call" {
		return nil, "", "", false
	}
	q := p.Model.CalleeName(ctor)
	typ, isTorch := strings.CutPrefix(q, "torch.")
	dtype := legacyTensorTypes[typ]
	sizes := rewrite.PositionalArgs(ctor)
	if !isTorch || dtype == "" || len(sizes) == 0 || len(sizes) != len(ctor.ChildByField("arguments").NamedChildren()) {
		return nil, "", "", false
	}
	if len(sizes) == 1 && sizes[0].Type != "integer" && !sizeExpression(sizes[0]) {
		return nil, "", "", false // torch.FloatTensor(data): a copy of data, not a size
	}
	for _, s := range sizes {
		if s.Is("list", "tuple", "list_comprehension", "float", "string") {
			return nil, "", "", false
		}
	}
	module := strings.TrimSuffix(ctor.ChildByField("function").Text(), "."+typ) // `torch`, or `th` where the file says so
	size := ctor.ChildByField("arguments").Text()
	size = size[1 : len(size)-1]
	if name == "zeros" {
		return ctor, name, module + ".zeros(" + size + ", dtype=" + dtype + ", device=" + dev + ")", true
	}
	if name == "uniform_" || name == "normal_" {
		return ctor, name, module + ".empty(" + size + ", dtype=" + dtype + ", device=" + dev + ")." + name + call.ChildByField("arguments").Text(), true
	}
	if len(sizes) == 1 && sizes[0].Type == "integer" {
		size += "," // (n,)
	}
	if len(sizes) > 1 || sizes[0].Type == "integer" {
		size = "(" + size + ")"
	}
	return ctor, name, module + ".full(" + size + ", " + args[0].Text() + ", dtype=" + dtype + ", device=" + dev + ")", true
}

// plainNumber reports an int or float literal, possibly negated.
func plainNumber(n *rewrite.Node) bool {
	if n.Type == "unary_operator" && len(n.NamedChildren()) == 1 {
		n = n.NamedChildren()[0]
	}
	return n.Is("integer", "float")
}

// sizeExpression reports `x.size()` or `x.shape`: a torch.Size, which a
// typed constructor reads as a size.
func sizeExpression(n *rewrite.Node) bool {
	switch n.Type {
	case "attribute":
		return n.ChildByField("attribute").Text() == "shape"
	case "call":
		fn := n.ChildByField("function")
		return fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "size" && len(n.ChildByField("arguments").NamedChildren()) == 0
	}
	return false
}

// checkLegacyFactory reports a legacy constructor's zero_() or fill_(v)
// moved to the device (tail, the expression the move applies to, is obj
// or obj under conversions), with a fix that builds it there instead.
func checkLegacyFactory(p *Pass, move, dev, obj, tail *rewrite.Node) {
	devText := deviceText(dev)
	ctor, name, text, ok := legacyFactory(p, obj, devText)
	if !ok || oneTimeFactory(p, "zeros", ctor) || hostTensorDevice(p, dev) || strings.Contains(p.File.Src.Text(obj.Start, move.End), "#") {
		return
	}
	edits := []rewrite.Edit{{Start: obj.Start, End: obj.End, New: text}, {Start: tail.End, End: move.End}}
	ctorName := ctor.ChildByField("function").Text()
	if name == "uniform_" || name == "normal_" {
		// `torch.FloatTensor(n, d).uniform_(-1, 1).to(device)` every step
		// (blind sample S37A's CQL-SAC random actions): drawn on the host,
		// then copied.
		fix := Fix(rewrite.Unsafe, "Create it with torch.empty(..., device="+devText+")."+name+"(...)", edits...)
		p.Report(move, ctorName+"(...)."+name+"(...) is drawn on the CPU and then copied to the device: draw it there with torch.empty(..., device="+devText+")."+name+"(...) (the numbers then come from the CUDA generator, not the CPU one)", fix)
		return
	}
	fix := Fix(rewrite.Safe, "Create it with torch."+name+"(..., device="+devText+")", edits...)
	init := ".zero_()"
	if name == "full" {
		init = ".fill_(...)"
	}
	p.Report(move, ctorName+"(...)"+init+" is built on the CPU and then copied to the device: create it there with torch."+name+"(..., device="+devText+") (same values)", fix)
}

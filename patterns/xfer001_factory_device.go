package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// FactoryDevice is XFER001.
var FactoryDevice = &Rule{
	Code:      "XFER001",
	Name:      "factory-then-move",
	Title:     "Create tensors on the device (device=...) instead of on the CPU then moving them",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"zeros", "ones", "full", "empty", "arange", "eye", "linspace", "tensor", "rand", "randn", "randint", "normal"}, // the torch factories it moves (safeFactories, randomFactories)
	Check:     checkFactoryDevice,
}

func init() { Register(FactoryDevice) }

var safeFactories = map[string]bool{"zeros": true, "ones": true, "full": true, "empty": true, "arange": true, "eye": true, "linspace": true, "tensor": true}
var randomFactories = map[string]bool{"rand": true, "randn": true, "randint": true, "normal": true}

func checkFactoryDevice(p *Pass) {
	for _, move := range torchCalls(p) {
		dev, ok, obj := p.Model.MoveTarget(move)
		if !ok || obj == nil || obj.Type != "call" {
			continue
		}
		// `torch.zeros(...).float().to(dev)`, `torch.arange(n).view(-1, 1)
		// .to(dev)`: the dtype conversions and reshapes stay, after the
		// factory built on the device.
		tail := obj
		for {
			fn := obj.ChildByField("function")
			if fn == nil || fn.Type != "attribute" || fn.ChildByField("object").Type != "call" {
				break
			}
			attr := fn.ChildByField("attribute").Text()
			if !(dtypeMethods[attr] && len(obj.ChildByField("arguments").NamedChildren()) == 0) && !shapeMethods[attr] {
				break
			}
			obj = fn.ChildByField("object")
		}
		q := p.Model.CalleeName(obj)
		if !strings.HasPrefix(q, "torch.") || strings.Count(q, ".") != 1 {
			continue
		}
		name := q[len("torch."):]
		random := randomFactories[name]
		if !safeFactories[name] && !random {
			continue
		}
		if rewrite.HasKwargsSplat(obj) {
			continue // **kwargs may already hold device= (`*size` is fine: device= goes after it)
		}
		skip := false
		for _, kw := range []string{"device", "out", "requires_grad", "pin_memory", "generator"} {
			if rewrite.KeywordArg(obj, kw) != nil {
				skip = true
			}
		}
		if name == "normal" && len(rewrite.PositionalArgs(obj)) < 3 && rewrite.KeywordArg(obj, "size") == nil {
			skip = true // tensor mean/std: the output follows their device
		}
		for _, a := range move.ChildByField("arguments").NamedChildren() {
			if a.Type == "keyword_argument" {
				if k := a.ChildByField("name").Text(); k != "device" && k != "non_blocking" {
					skip = true // dtype=, copy=, memory_format= would be lost
				}
			}
		}
		if skip {
			continue
		}
		// Nothing but the move (no comment) between the factory and the call's end.
		if strings.Contains(p.File.Src.Text(tail.End, move.End), "#") {
			continue
		}
		devText := `"cuda"`
		if dev != nil {
			devText = dev.Text()
			if dev.Type == "integer" {
				devText = `"cuda:` + dev.Text() + `"`
			}
		}
		add, ok := rewrite.AppendItem(obj.ChildByField("arguments"), "device="+devText)
		if !ok {
			continue
		}
		edits := []rewrite.Edit{add, {Start: tail.End, End: move.End}}
		app, what := rewrite.Safe, "same values"
		if random {
			app, what = rewrite.Unsafe, "the numbers then come from the CUDA generator, not the CPU one"
		} else if name == "arange" && !integerArange(obj) {
			app, what = rewrite.Unsafe, "a non-integer arange can differ in the last bit: the CPU kernel steps in double, the CUDA one in float"
		}
		p.Report(move, "torch."+name+"(...) is built on the CPU and then copied to the device: pass device="+devText+" ("+what+")",
			Fix(app, "Create it with device="+devText, edits...))
	}
}

// shapeMethods reshape a tensor and keep its device (their arguments are
// sizes and dimensions).
var shapeMethods = map[string]bool{"view": true, "reshape": true, "unsqueeze": true, "squeeze": true, "t": true,
	"transpose": true, "permute": true, "flatten": true, "contiguous": true, "repeat": true, "expand": true}

// dtypeMethods convert a tensor's dtype and keep its device.
var dtypeMethods = map[string]bool{"float": true, "double": true, "half": true, "bfloat16": true, "long": true, "int": true, "bool": true}

// integerArange reports a torch.arange whose positional arguments are all
// integer literals: its values are exact on every device.
func integerArange(call *rewrite.Node) bool {
	for _, a := range rewrite.PositionalArgs(call) {
		if a.Type != "integer" {
			return false
		}
	}
	return true
}

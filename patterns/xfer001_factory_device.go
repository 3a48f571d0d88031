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
	Doc: `## What it does
Finds a tensor factory called on the CPU whose result is moved at once:
` + "`torch.zeros(...).to(device)`, `torch.tensor(data).cuda()`, `torch.randn(...).to(\"cuda\")`" + `.

## Why is this bad?
The tensor is allocated and filled on the CPU, then copied to the GPU with a
synchronous host-to-device transfer. With ` + "`device=`" + ` it is created where it
is used: no host allocation, no copy.

## Example
` + "```python" + `
mask = torch.zeros(n, n).to(device)
noise = torch.randn(b, d).cuda()
` + "```" + `

## Use instead
` + "```python" + `
mask = torch.zeros(n, n, device=device)
noise = torch.randn(b, d, device="cuda")
` + "```" + `

## Fix safety
Safe for ` + "`zeros`, `ones`, `full`, `empty`, `eye`, `linspace`, `tensor`" + ` and
` + "`arange`" + ` with integer literal arguments: the values are the same wherever
they are computed (` + "`empty`" + `'s are undefined either way). Unsafe for an
` + "`arange`" + ` with other arguments (` + "`torch.arange(0, 1, 0.1)`" + `: the CPU kernel steps
in double and the CUDA one in float, so element 9 is 0.89999998 on one and
0.90000004 on the other, measured on an H100). Unsafe for ` + "`rand`, `randn`, `randint`, `normal`" + `: the numbers
come from the CUDA generator instead of the CPU one, so the values (and the
CPU random stream seen by later code) change. Silent when the factory already
has ` + "`device=`, `out=`, `requires_grad=`, `pin_memory=`, `generator=`" + ` or
` + "`**kwargs`" + `, or when ` + "`.to(...)`" + ` gets anything but a device.

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): 4096×4096
` + "`zeros`" + ` then ` + "`.to`" + ` 18.5 ms → ` + "`device=`" + ` 0.041 ms (**450×**); ` + "`randn`" + ` 142.5 ms →
0.065 ms (**2,190×**) for that line.
`,
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
		q := p.Model.CalleeName(obj)
		if !strings.HasPrefix(q, "torch.") || strings.Count(q, ".") != 1 {
			continue
		}
		name := q[len("torch."):]
		random := randomFactories[name]
		if !safeFactories[name] && !random {
			continue
		}
		if rewrite.HasSplat(obj) {
			continue
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
		if strings.Contains(p.File.Src.Text(obj.End, move.End), "#") {
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
		edits := []rewrite.Edit{add, {Start: obj.End, End: move.End}}
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

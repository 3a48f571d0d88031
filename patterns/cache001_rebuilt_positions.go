package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// RebuiltPositions is CACHE001.
var RebuiltPositions = &Rule{
	Code:      "CACHE001",
	Name:      "positions-mask-rebuilt-in-forward",
	Title:     "Cache position indices and causal masks instead of rebuilding them in forward",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"arange", "triu", "tril"}, // findings are torch.arange / torch.triu / torch.tril (or <factory>.triu/.tril) calls
	Check:     checkRebuiltPositions,
	Doc: `## What it does
Finds ` + "`torch.arange(...)`" + ` and causal masks built from a fresh tensor
(` + "`torch.triu(torch.ones(T, T), 1)`" + `, ` + "`torch.tril(torch.ones(T, T))`" + `,
` + "`torch.ones(T, T).tril()`" + `) inside the ` + "`forward`" + ` of an ` + "`nn.Module`" + `
subclass.

## Why is this bad?
The same index vector and mask are allocated and filled on every forward
(and in training on every micro-batch): extra kernel launches and
allocations, and a host-side ` + "`T x T`" + ` tensor when no ` + "`device=`" + ` is given.
They depend only on the length, so they can be built once.

## Example
` + "```python" + `
def forward(self, x):
    T = x.size(1)
    pos = torch.arange(T, device=x.device)
    mask = torch.triu(torch.ones(T, T, device=x.device, dtype=torch.bool), 1)
    ...
` + "```" + `

## Use instead
` + "```python" + `
def __init__(self, max_len):
    super().__init__()
    self.register_buffer("pos", torch.arange(max_len), persistent=False)
    self.register_buffer("mask", torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), 1), persistent=False)

def forward(self, x):
    T = x.size(1)
    pos, mask = self.pos[:T], self.mask[:T, :T]
    ...
` + "```" + `
or let ` + "`F.scaled_dot_product_attention(q, k, v, is_causal=True)`" + ` apply the
causal mask without materialising it.

## Fix safety
A hint without an automatic rewrite: a cache needs a maximum length (or a
per-length dict), the right dtype and device, and a place in ` + "`__init__`" + `;
gpuopt cannot choose those safely. Silent when the result is stored on
` + "`self`" + ` or built under an ` + "`if`" + ` (usually already a cache).

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): building
` + "`torch.arange(T)`" + ` and a causal mask for T=1024 on every forward took 0.058 ms,
slicing cached ones 0.025 ms (**2.3×** on that op; small in absolute terms,
it matters for small models and short steps).
`,
}

func init() { Register(RebuiltPositions) }

var maskFactories = map[string]bool{"torch.ones": true, "torch.full": true, "torch.ones_like": true, "torch.empty": true}

func checkRebuiltPositions(p *Pass) {
	for _, cls := range p.File.OfType("class_definition") {
		if !p.Model.IsModuleClass(cls.ChildByField("name")) {
			continue
		}
		fwd := methodNamed(cls, "forward")
		if fwd == nil {
			continue
		}
		fwd.ChildByField("body").Walk(func(n *rewrite.Node) bool {
			if n.Is("function_definition", "class_definition", "lambda", "if_statement", "conditional_expression") {
				return false
			}
			if n.Type != "call" || cachedOnSelf(n) {
				return true
			}
			q := p.Model.CalleeName(n)
			fn := n.ChildByField("function")
			switch {
			case q == "torch.arange":
				p.Report(n, "torch.arange is rebuilt on every forward: register it once as a buffer for the maximum length and slice it", nil)
				return false
			case q == "torch.triu" || q == "torch.tril":
				if a := rewrite.Arg(n, 0, "input"); a != nil && maskFactories[p.Model.CalleeName(a)] {
					p.Report(n, "this causal mask is rebuilt on every forward: register it once as a buffer and slice it, or use scaled_dot_product_attention(is_causal=True)", nil)
					return false
				}
			case fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "triu" || fn.ChildByField("attribute").Text() == "tril"):
				if maskFactories[p.Model.CalleeName(fn.ChildByField("object"))] {
					p.Report(n, "this causal mask is rebuilt on every forward: register it once as a buffer and slice it, or use scaled_dot_product_attention(is_causal=True)", nil)
					return false
				}
			}
			return true
		})
	}
}

// cachedOnSelf reports a call whose value is assigned to self.<attr>.
func cachedOnSelf(call *rewrite.Node) bool {
	asg := call.Ancestor("assignment")
	if asg == nil || !asg.ChildByField("right").Contains(call) {
		return false
	}
	l := asg.ChildByField("left")
	return l.Type == "attribute" || l.Type == "subscript"
}

package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// ZeroGradSetToNone is OPT002.
var ZeroGradSetToNone = &Rule{
	Code:      "OPT002",
	Name:      "zero-grad-set-to-none",
	Title:     "Call zero_grad(set_to_none=True) on PyTorch < 2.0",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Check:     checkZeroGrad,
	Doc: `## What it does
Finds ` + "`optimizer.zero_grad()`" + ` and ` + "`model.zero_grad()`" + ` called without
arguments, only when the project pins PyTorch < 2.0.

## Why is this bad?
Before PyTorch 2.0 ` + "`zero_grad()`" + ` writes zeros into every gradient (a memset
kernel per parameter) and the next backward adds into them. With
` + "`set_to_none=True`" + ` the gradients are dropped and the backward writes them
fresh. Since PyTorch 2.0 this is the default, so gpuopt says nothing there.

## Example
` + "```python" + `
optimizer.zero_grad()
` + "```" + `

## Use instead
` + "```python" + `
optimizer.zero_grad(set_to_none=True)
` + "```" + `

## Fix safety
Safe for the usual loop (zero, backward, step), which is exactly what PyTorch
2.0 made the default. Code that reads ` + "`p.grad`" + ` between ` + "`zero_grad()`" + ` and
the backward sees ` + "`None`" + ` instead of zeros, and optimizers skip parameters
whose gradient is ` + "`None`" + ` (weight decay is not applied to them that step).

## Measured gain
Not measured (PyTorch < 2.0 only; the project's GPU machine runs 2.11).
`,
}

func init() { Register(ZeroGradSetToNone) }

func checkZeroGrad(p *Pass) {
	if p.Env.Versions.Torch.AtLeast(2, 0) {
		return
	}
	for _, call := range torchCalls(p) {
		if callAttr(call) != "zero_grad" || len(call.ChildByField("arguments").NamedChildren()) != 0 {
			continue
		}
		obj := call.ChildByField("function").ChildByField("object")
		if !p.Model.IsOptimizer(obj) && !p.Model.IsModule(obj) {
			continue
		}
		e, ok := rewrite.AppendItem(call.ChildByField("arguments"), "set_to_none=True")
		if !ok {
			continue
		}
		p.Report(call, "zero_grad() writes zeros into every gradient before PyTorch 2.0: pass set_to_none=True (the default since 2.0)",
			Fix(rewrite.Safe, "Pass set_to_none=True", e))
	}
}

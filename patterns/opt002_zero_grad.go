package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// ZeroGradSetToNone is OPT002.
var ZeroGradSetToNone = &Rule{
	Code:      "OPT002",
	Name:      "zero-grad-set-to-none",
	Title:     "Call zero_grad(set_to_none=True) on PyTorch < 2.0",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"zero_grad"}, // findings are on X.zero_grad() calls
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
Unsafe (the catalogue calls it safe; it is not, exactly). It is what PyTorch
2.0 made the default, and for the usual loop (zero, backward, step) where
every parameter gets a gradient each step nothing changes. But code that reads ` + "`p.grad`" + ` between ` + "`zero_grad()`" + ` and
the backward sees ` + "`None`" + ` instead of zeros, and optimizers skip parameters
whose gradient is ` + "`None`" + `: a parameter unused in a step (a head trained
only on some batches) then gets no weight decay and no momentum update that
step, so with SGD momentum its weights drift apart from the old behaviour.
Only fires for PyTorch 1.7 to 1.x (` + "`set_to_none`" + ` appeared in 1.7).

## Measured gain
Not measured (PyTorch < 2.0 only; the project's GPU machine runs 2.11).
`,
}

func init() { Register(ZeroGradSetToNone) }

func checkZeroGrad(p *Pass) {
	if v := p.Env.Versions.Torch; v.AtLeast(2, 0) || !v.AtLeast(1, 7) {
		return // the default since 2.0; the argument does not exist before 1.7
	}
	for _, call := range p.File.MethodCalls("zero_grad") {
		if len(call.ChildByField("arguments").NamedChildren()) != 0 {
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
			Fix(rewrite.Unsafe, "Pass set_to_none=True", e))
	}
}

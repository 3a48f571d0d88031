package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// EvalWithoutNoGrad is MEM003.
var EvalWithoutNoGrad = &Rule{
	Code:      "MEM003",
	Name:      "eval-loop-without-no-grad",
	Title:     "Run evaluation loops under torch.inference_mode()",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"eval"}, // a finding needs an R.eval() statement before the loop
	Check:     checkEvalWithoutNoGrad,
	Doc: `## What it does
Finds an evaluation loop: a ` + "`for`" + ` loop after ` + "`model.eval()`" + ` that calls
` + "`model(...)`" + ` and never runs ` + "`backward()`" + ` or an optimizer step, with no
` + "`torch.no_grad()`" + ` / ` + "`torch.inference_mode()`" + ` around it (a ` + "`with`" + `, a
decorator, or a caller in the same file that wraps it).

## Why is this bad?
` + "`model.eval()`" + ` only switches dropout and batch-norm behaviour; it does not
turn autograd off. Every forward still records the graph and keeps the
activations it needs for a backward that never comes: evaluation then uses
training-sized memory (fewer samples per batch fit) and spends time on
bookkeeping. ` + "`inference_mode`" + ` also skips version counting and view tracking.

## Example
` + "```python" + `
model.eval()
for x, y in val_loader:
    preds = model(x.cuda()).argmax(-1)
    correct += (preds == y.cuda()).sum()
` + "```" + `

## Use instead
` + "```python" + `
model.eval()
with torch.inference_mode():
    for x, y in val_loader:
        preds = model(x.cuda()).argmax(-1)
        correct += (preds == y.cuda()).sum()
` + "```" + `

## Fix safety
Unsafe: tensors created inside ` + "`inference_mode`" + ` are inference tensors. If
the loop's outputs are later used in autograd (as a target of a training loss,
for instance) PyTorch raises an error; use ` + "`torch.no_grad()`" + ` there instead.
The fix re-indents the loop with the file's indentation unit (lines inside
multi-line strings are left alone). gpuopt stays silent when the loop mentions
anything about gradients (` + "`requires_grad`" + `, ` + "`torch.autograd`" + `, ` + "`.grad`" + `,
` + "`enable_grad`" + `), contains ` + "`yield`" + ` (grad mode would leak into the consumer),
when every forward in the loop already runs under ` + "`no_grad`/`inference_mode`" + `,
or when the file switches grad mode globally. On torch < 1.9 the fix uses
` + "`torch.no_grad()`" + `.

## Measured gain
Not measured by gpuopt; the saving is the activation memory of the forward
(often most of the evaluation's memory) plus autograd bookkeeping.
`,
}

func init() { Register(EvalWithoutNoGrad) }

func checkEvalWithoutNoGrad(p *Pass) {
	ctx := "torch.inference_mode"
	if !p.Env.Versions.Torch.AtLeast(1, 9) {
		ctx = "torch.no_grad"
	}
	reported := map[*rewrite.Node]bool{}
	for _, loop := range p.File.OfType("for_statement") {
		if isAsync(loop) || p.Model.Loop(loop).Trains() {
			continue
		}
		outer := false
		for _, l := range p.Model.EnclosingLoops(loop) {
			if reported[l] {
				outer = true
			}
		}
		if outer {
			continue
		}
		recv := p.Model.EvalModeBefore(loop)
		if recv == nil || !callsReceiver(p, loop, recv.Text()) || touchesGrad(p, loop) || p.Model.InGradContext(loop) {
			continue
		}
		reported[loop] = true
		var fix *rewrite.Fix
		if name, ok := p.Model.LocalName(loop, ctx); ok {
			if e, ok := rewrite.WrapStatementEdit(loop, "with "+name+"():"); ok {
				fix = Fix(rewrite.Unsafe, "Wrap the loop in "+name+"()", e)
			}
		}
		src := p.File.Src
		p.ReportRange(loop.Start, src.LineEnd(src.LineOf(loop.Start)),
			"evaluation loop after "+recv.Text()+".eval() runs with autograd on: every forward records a graph and keeps its activations; wrap it in "+ctx+"()", fix)
	}
}

func isAsync(loop *rewrite.Node) bool {
	return len(loop.Children) > 0 && loop.Children[0].Type == "async"
}

// callsReceiver reports a call `recv(...)` in the loop body that is not
// already under no_grad / inference_mode inside the loop.
func callsReceiver(p *Pass, loop *rewrite.Node, recv string) bool {
	found := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if n.Type == "call" && n.ChildByField("function").Text() == recv && !p.Model.InGradContext(n) {
			found = true
		}
	})
	return found
}

// touchesGrad reports anything gradient-related in the loop or in the
// same-file functions it calls: names containing "grad", backward, yield.
func touchesGrad(p *Pass, loop *rewrite.Node) bool {
	found := false
	var scan func(n *rewrite.Node, depth int)
	scan = func(root *rewrite.Node, depth int) {
		root.Walk(func(n *rewrite.Node) bool {
			if found {
				return false
			}
			switch n.Type {
			case "identifier":
				t := strings.ToLower(n.Text())
				if strings.Contains(t, "grad") || t == "backward" {
					found = true
				}
			case "yield", "await":
				found = true
			case "call":
				if def := p.Model.FunctionDef(n); def != nil && depth < 2 {
					scan(def, depth+1)
				}
			}
			return !found
		})
	}
	scan(loop, 0)
	return found
}

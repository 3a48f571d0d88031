package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// SynchronizeInLoop is SYNC003.
var SynchronizeInLoop = &Rule{
	Code:      "SYNC003",
	Name:      "synchronize-in-hot-loop",
	Title:     "Remove torch.cuda.synchronize() from the step when nothing is timed",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"synchronize"}, // every spelling of torch.cuda.synchronize ends in it
	Check:     checkSynchronizeInLoop,
	Doc: `## What it does
Finds ` + "`torch.cuda.synchronize()`" + ` called unconditionally on every step of a
hot loop (a loop that runs a model forward, ` + "`.backward()`" + `, an optimizer step
or iterates a ` + "`DataLoader`" + `) in code that times nothing.

## Why is this bad?
CUDA kernels run asynchronously: while the GPU works on step *n* the Python
thread already prepares step *n+1* (loads the batch, launches kernels). A
synchronize on every step makes the CPU wait until the GPU is idle, so CPU and
GPU work no longer overlap and the GPU starves between steps.

## Example
` + "```python" + `
for x, y in loader:
    loss = loss_fn(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    torch.cuda.synchronize()
` + "```" + `

## Use instead
` + "```python" + `
for x, y in loader:
    loss = loss_fn(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
` + "```" + `

## Fix safety
Unsafe: results are the same, but anything that relied on the barrier changes:
wall-clock measurements, host code that reads pinned memory written by a
` + "`non_blocking`" + ` copy, interaction with other streams or processes, and
where a CUDA error is reported. gpuopt stays silent when the same function
measures time (` + "`time.*`" + `, ` + "`timeit`" + `, ` + "`torch.cuda.Event`" + `, the
profiler, NVTX): there the barrier is what makes the numbers right. Also silent
when the call is conditional (every N steps) or runs once per epoch around the
step loop.

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): a tiny MLP, 100 training
steps with and without a synchronize per step: 0.78–1.09× across runs, that is
within the run-to-run noise of that workload. No speed is claimed; the cost is
one CPU/GPU pipeline drain per step, which matters most when the host has
other work to overlap.
`,
}

func init() { Register(SynchronizeInLoop) }

func checkSynchronizeInLoop(p *Pass) {
	for _, call := range p.Model.CallsTo("torch.cuda.synchronize") {
		if rewrite.HasSplat(call) {
			continue
		}
		stmt, _ := perStepCallStatement(p, call)
		if stmt == nil || timesCode(p, call) {
			continue
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
			fix = Fix(rewrite.Unsafe, "Remove torch.cuda.synchronize()", e)
		}
		p.Report(call, "torch.cuda.synchronize() on every step makes the CPU wait for the GPU, so the next step cannot be prepared while this one runs; nothing here is timed, remove it", fix)
	}
}

// timesCode reports whether the function (or module) around n measures
// time: time.*, timeit, datetime.now, CUDA events, the profiler or NVTX.
func timesCode(p *Pass, n *rewrite.Node) bool {
	scope := n.Ancestor("function_definition")
	if scope == nil {
		scope = p.File.Root
	}
	found := false
	scope.Walk(func(c *rewrite.Node) bool {
		if found {
			return false
		}
		if !c.Is("attribute", "identifier") {
			return true
		}
		q := p.Model.QualifiedName(c)
		for _, pre := range []string{"time.", "timeit.", "datetime.", "torch.cuda.Event", "torch.cuda.nvtx", "torch.profiler", "torch.autograd.profiler", "torch.utils.benchmark", "torch.cuda.Stream"} {
			if strings.HasPrefix(q, pre) {
				found = true
			}
		}
		if c.Type == "attribute" {
			switch c.ChildByField("attribute").Text() {
			case "elapsed_time", "perf_counter", "perf_counter_ns", "record_event", "wait_stream":
				found = true
			}
		}
		return !found
	})
	return found
}

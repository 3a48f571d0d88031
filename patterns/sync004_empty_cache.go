package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// EmptyCacheInLoop is SYNC004.
var EmptyCacheInLoop = &Rule{
	Code:      "SYNC004",
	Name:      "empty-cache-in-hot-loop",
	Title:     "Remove torch.cuda.empty_cache() from the training/inference step",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"empty_cache"}, // every spelling of torch.cuda.empty_cache ends in it
	Check:     checkEmptyCacheInLoop,
	Doc: `## What it does
Finds ` + "`torch.cuda.empty_cache()`" + ` called unconditionally on every step of a
hot loop: a loop that runs a model forward, ` + "`.backward()`" + `, an optimizer step
or iterates a ` + "`DataLoader`" + `.

## Why is this bad?
` + "`empty_cache()`" + ` hands the caching allocator's free blocks back to the
driver. The next step needs the same memory again, so PyTorch must call
` + "`cudaMalloc`" + ` again (slow, and synchronising) instead of reusing its cache.
It does not make more memory available to your own tensors: the cached blocks
were already reusable by PyTorch.

## Example
` + "```python" + `
for x, y in loader:
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    torch.cuda.empty_cache()
` + "```" + `

## Use instead
` + "```python" + `
for x, y in loader:
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
` + "```" + `

## Fix safety
Safe: the call only releases cached, unused blocks; tensors, numerics and the
program's results are unchanged (the statement becomes ` + "`pass`" + ` when it is
the only one of its block). Only other processes sharing the GPU see less free
memory in ` + "`nvidia-smi`" + `. Silent when the call is conditional (every N
steps, or in an ` + "`except`" + ` handler recovering from out-of-memory) and when it
runs once per epoch in a loop that wraps the step loop (a phase end, which is
cheap). If you need the memory released for another phase, call it once after
the loop.

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): a tiny MLP, 100 training
steps with and without ` + "`empty_cache()`" + ` per step: 0.76–1.02× across runs, within the
noise of that workload (the catalogue's run measured 1.16× on an MLP step).
Its cost grows with the memory the caching allocator must give back and take
again, so larger models pay more.
`,
}

func init() { Register(EmptyCacheInLoop) }

func checkEmptyCacheInLoop(p *Pass) {
	for _, call := range p.Model.CallsTo("torch.cuda.empty_cache") {
		if rewrite.HasSplat(call) {
			continue
		}
		stmt, _ := perStepCallStatement(p, call)
		if stmt == nil {
			continue
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
			fix = Fix(rewrite.Safe, "Remove torch.cuda.empty_cache()", e)
		}
		p.Report(call, "torch.cuda.empty_cache() on every step releases PyTorch's cached memory only for the next step to allocate it again (slow cudaMalloc, extra synchronisation); remove it", fix)
	}
}

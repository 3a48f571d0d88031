package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// NonBlockingCopy is XFER002.
var NonBlockingCopy = &Rule{
	Code:      "XFER002",
	Name:      "pinned-batch-non-blocking",
	Title:     "Copy batches from a pinned DataLoader with non_blocking=True",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"pin_memory"}, // only loops over a DataLoader(pin_memory=True)
	Check:     checkNonBlocking,
	Doc: `## What it does
Finds ` + "`x.to(device)` / `x.cuda()`" + ` of a batch tensor drawn from a
` + "`DataLoader(..., pin_memory=True)`" + ` (the loop variable of a ` + "`for`" + ` over the
loader) without ` + "`non_blocking=True`" + `.

## Why is this bad?
Pinning the batch exists to make the copy asynchronous. Without
` + "`non_blocking=True`" + ` the host still waits for each copy to finish, so the
CPU cannot queue the next kernels (or fetch the next batch) while the batch
travels over PCIe.

## Example
` + "```python" + `
loader = DataLoader(ds, batch_size=64, num_workers=8, pin_memory=True)
for x, y in loader:
    x, y = x.to(device), y.to(device)
` + "```" + `

## Use instead
` + "```python" + `
for x, y in loader:
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
` + "```" + `

## Fix safety
Safe: the copy is ordered on the current CUDA stream before every kernel that
reads the result, and reading it on the host (` + "`.item()`, `.cpu()`" + `) waits for
it. The only hazard is writing to the pinned source tensor on the host while
the copy is in flight; gpuopt requires that the source name is not read again
after the copy in the loop (or is rebound by it: ` + "`x = x.to(device)`" + `).
Silent for loaders with a ` + "`collate_fn`" + `: the batch may then be an object
whose ` + "`.to()`" + ` has no ` + "`non_blocking`" + ` parameter.

## Measured gain
Not measured alone; part of the LOAD001 measurement (ResNet-18 on a
CPU-decoded dataset, 326 → 2,327 samples/s with 8 workers, pinned memory,
persistent workers and non_blocking copies).
`,
}

func init() { Register(NonBlockingCopy) }

func checkNonBlocking(p *Pass) {
	for _, b := range dataLoaderBindings(p) {
		if !isTrueLit(rewrite.KeywordValue(b.Value, "pin_memory")) {
			continue
		}
		if rewrite.KeywordArg(b.Value, "collate_fn") != nil || rewrite.HasSplat(b.Value) {
			// A custom collate_fn (a Hugging Face data collator, a batch
			// class) may return objects whose .to() takes no non_blocking.
			continue
		}
		for _, use := range b.Uses {
			loop := loopOverLoader(p, use)
			if loop == nil {
				continue
			}
			checkBatchCopies(p, loop)
		}
	}
}

// loopOverLoader returns the for statement iterating use directly or through
// enumerate/tqdm.
func loopOverLoader(p *Pass, use *rewrite.Node) *rewrite.Node {
	n := use
	for n.Parent != nil && n.Parent.Type == "argument_list" && n.Parent.Parent != nil && n.Parent.Parent.Type == "call" {
		call := n.Parent.Parent
		q := p.Model.CalleeName(call)
		if q != "enumerate" && q != "tqdm.tqdm" && q != "tqdm.auto.tqdm" && q != "tqdm" {
			return nil
		}
		if len(rewrite.PositionalArgs(call)) == 0 || rewrite.PositionalArgs(call)[0] != n {
			return nil
		}
		n = call
	}
	if n.Parent != nil && n.Parent.Type == "for_statement" && n.Parent.ChildByField("right") == n {
		return n.Parent
	}
	return nil
}

func checkBatchCopies(p *Pass, loop *rewrite.Node) {
	targets := map[string]bool{}
	left := loop.ChildByField("left")
	left.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" {
			targets[n.Text()] = true
		}
		return true
	})
	walkLoopBody(p.Model, loop, func(call *rewrite.Node) {
		if call.Type != "call" {
			return
		}
		_, ok, obj := p.Model.MoveTarget(call)
		if !ok || obj.Type != "identifier" || !targets[obj.Text()] || rewrite.KeywordArg(call, "non_blocking") != nil {
			return
		}
		if p.Model.MoveKind(call) == rewrite.DeviceOther {
			return
		}
		// The name must be the loop's own binding.
		bs := p.Model.Bindings(obj)
		own := false
		for _, b := range bs {
			if b.Stmt == loop {
				own = true
			}
		}
		if !own || !sourceDoneAfter(p, obj, call, loop) {
			return
		}
		args := call.ChildByField("arguments")
		e, ok := rewrite.AppendItem(args, "non_blocking=True")
		if !ok {
			return
		}
		p.Report(call, "this batch comes from a pinned DataLoader: copy it with non_blocking=True so the host does not wait for each transfer",
			Fix(rewrite.Safe, "Pass non_blocking=True", e))
	})
}

// sourceDoneAfter reports that the CPU tensor named by src is not read
// after the copy call in the loop body, unless the copy's statement rebinds
// that very name (`x = x.to(dev)` / `x, y = x.to(dev), y.to(dev)`).
func sourceDoneAfter(p *Pass, src, call, loop *rewrite.Node) bool {
	stmt := rewrite.Statement(call)
	if stmt != nil && stmt.Type == "expression_statement" {
		if a := stmt.NamedChildren(); len(a) == 1 && a[0].Type == "assignment" {
			rebound := false
			if l := a[0].ChildByField("left"); l != nil {
				l.Walk(func(n *rewrite.Node) bool {
					if n.Type == "identifier" && n.Text() == src.Text() {
						rebound = true
					}
					return true
				})
			}
			if rebound {
				return true
			}
		}
	}
	later := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if n.Type == "identifier" && n.Text() == src.Text() && n.Start > call.End {
			later = true
		}
	})
	return !later
}

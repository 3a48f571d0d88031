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
}

func init() { Register(NonBlockingCopy) }

func checkNonBlocking(p *Pass) {
	for _, site := range loaderSites(p) {
		b := site.Binding
		if !isTrueLit(rewrite.KeywordValue(site.Call, "pin_memory")) {
			continue
		}
		if rewrite.KeywordArg(site.Call, "collate_fn") != nil || rewrite.HasSplat(site.Call) {
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

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
	Check:     checkNonBlocking,
}

func init() { Register(NonBlockingCopy) }

func checkNonBlocking(p *Pass) {
	for _, loop := range p.File.OfType("for_statement") {
		if pinnedSource(p, loop.ChildByField("right")) {
			checkBatchCopies(p, loop)
		}
	}
}

// pinnedSource reports a loop's iterable that is a pinned DataLoader
// (pin_memory=True): built here, returned by a helper, kept on self or
// passed in through a parameter (rewrite.Model.Origins), possibly wrapped
// in enumerate() or tqdm(). Every DataLoader it may be must be pinned,
// without a custom collate_fn (a Hugging Face data collator or a batch
// class may return objects whose .to() takes no non_blocking) and without
// **kwargs.
func pinnedSource(p *Pass, it *rewrite.Node) bool {
	for it != nil && it.Type == "call" {
		q := p.Model.CalleeName(it)
		if q != "enumerate" && q != "tqdm.tqdm" && q != "tqdm.auto.tqdm" && q != "tqdm" {
			break
		}
		pos := rewrite.PositionalArgs(it)
		if len(pos) == 0 {
			return false
		}
		it = pos[0]
	}
	if it == nil || !it.Is("identifier", "attribute") {
		return false
	}
	pinned := false
	for _, o := range p.Model.Origins(it) {
		if o.Annotation {
			continue // `train_data: DataLoader` says nothing of its pinning
		}
		e := o.Expr
		if e == nil || e.Type != "call" || o.Index >= 0 || calleeKind(p.Model.CalleeName(e)).Kind != KindLoader {
			return false
		}
		if rewrite.HasSplat(e) && !splatsKnown(p, e) {
			return false
		}
		// Pinned on every path, or on some (`if use_cuda:
		// kwargs.update(pin_memory=True)`): non_blocking=True is harmless
		// where it is not.
		pin, _, _ := callKeyword(p, e, "pin_memory")
		if _, _, collate := callKeyword(p, e, "collate_fn"); !isTrueLit(pin) || collate {
			return false
		}
		pinned = true
	}
	return pinned
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

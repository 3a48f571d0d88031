package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

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
	if !p.Env.Versions.Torch.AtLeast(0, 4) {
		return // non_blocking= arrived in PyTorch 0.4 (async= before)
	}
	for _, loop := range p.File.OfType("for_statement") {
		ok, across, one := pinnedLoader(p, loop.ChildByField("right"))
		if ok && !p.Model.Loop(loop).Trains() && (one && stepSyncsExcept(p.Model, loop, func(*rewrite.Node) bool { return false }) || readsOutputsBack(p.Model, loop)) {
			// An evaluation over single samples that reads each result
			// on the host (`.item()` metrics, `.cpu()` to save an image):
			// the copy of one sample is microseconds, and the next
			// iteration's copy waits for that sync anyway (blind samples
			// S25A's depth evaluations, S25F, S25L: ten findings judged
			// false).
			continue
		}
		if ok && predictionPassAfterTraining(p, loop) {
			continue
		}
		if ok {
			checkBatchCopies(p, loop, across)
		}
	}
	checkComprehensionCopies(p)
}

// predictionPassAfterTraining reports a loop that trains nothing and runs
// once (in no other loop, its function called once, outside any loop) in
// a file that trains (a training loop, or an optimizer built here): the
// prediction pass over the test set after the epochs, a small share of
// the run, as LOAD002 judges it (blind sample S38E's
// Food_Calories_Estimation, whose predict helpers were reported while the
// epochs train in another module). An inference script's pass, its whole
// job, keeps the finding.
func predictionPassAfterTraining(p *Pass, loop *rewrite.Node) bool {
	m := p.Model
	if m.Loop(loop).Trains() || len(m.EnclosingLoops(loop)) > 0 || !runsOnce(m, loop, 0) {
		return false
	}
	return m.IsTrainingScript() || len(torchOptimizerCalls(p)) > 0
}

// readsOutputsBack reports an evaluation loop that copies tensors back to
// the host on every step (`.cpu()`, `.numpy()`, `.tolist()`: per-sample
// CAMs drawn with OpenCV, predictions kept as lists), not merely reading a
// scalar metric with .item(): the host waits for the step's kernels and
// then for that copy, so a non-blocking input copy has nothing to overlap
// but the launch of the forward (blind samples S24D's TS-CAM and CCAM,
// S24F's siMLPe, S26F, S26H: eight findings judged false). A loop whose
// only sync is `.item()` of its loss keeps the finding, as a GPU engineer
// reading the pytorch/examples test loops expects. SYNC005 reads it too:
// moving a log read off such a loop's step gains nothing.
func readsOutputsBack(m *rewrite.Model, loop *rewrite.Node) bool {
	return stepSyncs(m, loop, func(n *rewrite.Node, method string) bool {
		return copiesToHost(n) && !underOneStepGuard(loop, n) && !readsHostBatch(loop, n)
	})
}

// readsHostBatch reports a host copy of the loop's own batch before it is
// moved (`points = points.data.numpy()` to augment it in NumPy): the batch
// is still on the host, and nothing waits for the GPU.
func readsHostBatch(loop, call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	root := rewrite.RootIdent(fn.ChildByField("object"))
	target := loop.ChildByField("left")
	if root == nil || target == nil {
		return false
	}
	named := false
	target.Walk(func(n *rewrite.Node) bool {
		named = named || n.Type == "identifier" && n.Text() == root.Text()
		return !named
	})
	if !named {
		return false
	}
	moved := false
	loop.ChildByField("body").Walk(func(n *rewrite.Node) bool {
		if moved || n.Start >= call.Start {
			return false
		}
		if n.Type == "assignment" && n.ChildByField("left").Text() == root.Text() {
			if v := n.ChildByField("right"); v != nil && (strings.Contains(v.Text(), ".cuda(") || strings.Contains(v.Text(), ".to(")) {
				moved = true
			}
		}
		return !moved
	})
	return !moved
}

// underOneStepGuard reports n under an `if` of the loop that compares a
// name with an integer (`if i == 0:` saving one sample image, as
// pytorch/examples' VAE test loop does): it runs on one step, not every.
func underOneStepGuard(loop, n *rewrite.Node) bool {
	for a := n.Parent; a != nil && a != loop; a = a.Parent {
		if a.Type != "if_statement" {
			continue
		}
		cond := a.ChildByField("condition")
		body := a.ChildByField("consequence")
		if cond == nil || body == nil || !body.Contains(n) || cond.Type != "comparison_operator" || len(cond.NamedChildren()) != 2 {
			continue
		}
		l, r := cond.NamedChildren()[0], cond.NamedChildren()[1]
		if strings.Contains(cond.Text(), "==") && l.Type == "identifier" && r.Type == "integer" {
			return true
		}
	}
	return false
}

// checkComprehensionCopies reports `[t.to(dev) for t in batch]` where
// batch is a batch of a pinned loader: drawn with next() from an iter()
// of it (`data_iter = iter(train_loader)` ... `batch = next(data_iter)`),
// or the target of a for loop over it.
func checkComprehensionCopies(p *Pass) {
	for _, comp := range p.File.OfType("list_comprehension") {
		body := comp.ChildByField("body")
		var clause *rewrite.Node
		for _, c := range comp.NamedChildren() {
			if c.Type == "for_in_clause" {
				if clause != nil {
					clause = nil // several clauses: not a copy of one batch
					break
				}
				clause = c
			}
		}
		if body == nil || clause == nil || len(comp.NamedChildren()) != 2 {
			continue
		}
		left, right := clause.ChildByField("left"), clause.ChildByField("right")
		_, ok, moved := p.Model.MoveTarget(body)
		if !ok || left == nil || left.Type != "identifier" || moved == nil || moved.Type != "identifier" || moved.Text() != left.Text() ||
			asksAsync(body) || p.Model.MoveKind(body) == rewrite.DeviceOther {
			continue
		}
		if right == nil || right.Type != "identifier" || !batchOfPinned(p, right, comp) {
			continue
		}
		e, ok := rewrite.AppendItem(body.ChildByField("arguments"), "non_blocking=True")
		if !ok {
			continue
		}
		p.Report(body, "this batch comes from a pinned DataLoader: copy it with non_blocking=True so the host does not wait for each transfer",
			Fix(rewrite.Safe, "Pass non_blocking=True", e))
	}
}

// batchOfPinned reports a name whose every value is a batch of a pinned
// loader: `next(it)` where every value of it is `iter(loader)`, or the
// target of a for loop over the loader. The binding comp itself makes
// (`batch = [t.to(dev) for t in batch]`) is not one of its values there.
func batchOfPinned(p *Pass, name, comp *rewrite.Node) bool {
	bs := p.Model.Bindings(name)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		switch {
		case b.Value == comp:
		case b.Kind == rewrite.LoopBinding && b.Stmt != nil && b.Stmt.Type == "for_statement":
			if left := b.Stmt.ChildByField("left"); left != b.Ident || !pinnedSource(p, b.Stmt.ChildByField("right")) {
				return false
			}
		case b.Kind == rewrite.AssignBinding && b.Value != nil && b.Value.Type == "call" && p.Model.CalleeName(b.Value) == "next":
			args := rewrite.PositionalArgs(b.Value)
			if len(args) != 1 || args[0].Type != "identifier" {
				return false
			}
			its := p.Model.Bindings(args[0])
			if len(its) == 0 {
				return false
			}
			for _, ib := range its {
				v := ib.Value
				if ib.Kind != rewrite.AssignBinding || v == nil || v.Type != "call" || p.Model.CalleeName(v) != "iter" {
					return false
				}
				if a := rewrite.PositionalArgs(v); len(a) != 1 || !pinnedSource(p, a[0]) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// pinnedSource reports a loop's iterable that is a pinned DataLoader
// (pin_memory=True): built here, returned by a helper, kept on self or
// passed in through a parameter (rewrite.Model.Origins), possibly wrapped
// in enumerate() or tqdm(). Every DataLoader it may be must be pinned,
// without a custom collate_fn (a Hugging Face data collator or a batch
// class may return objects whose .to() takes no non_blocking) and without
// **kwargs.
func pinnedSource(p *Pass, it *rewrite.Node) bool {
	ok, _, _ := pinnedLoader(p, it)
	return ok
}

// pinnedLoader is pinnedSource, also returning the origin of the pinned
// loader when it was found in another module of the project (the call
// site that passes it, or the helper that builds it, is elsewhere): the
// message names it, as an assumption; one says every loader it may be
// batches one sample (batch_size=1 by a literal, a constant or a flag's
// default).
func pinnedLoader(p *Pass, it *rewrite.Node) (pinned bool, across *rewrite.Origin, one bool) {
	for range 4 {
		if it != nil && it.Type == "identifier" {
			// `bar = tqdm(self.train_loader); for x, y in bar:`, or `with
			// tqdm(train_loader) as pbar: for i, x in enumerate(pbar):`
			// (blind sample S25L's BasicVSR).
			v := p.Model.ValueOf(it)
			if v == nil {
				v = withValue(p.Model, it)
			}
			if v == nil || v.Type != "call" || !loopWrapper(p.Model.CalleeName(v)) {
				break
			}
			it = v
		}
		for it != nil && it.Type == "call" {
			if !loopWrapper(p.Model.CalleeName(it)) {
				break
			}
			pos := rewrite.PositionalArgs(it)
			if len(pos) == 0 {
				return false, nil, false
			}
			it = pos[0]
		}
	}
	if it == nil || !it.Is("identifier", "attribute") {
		return false, nil, false
	}
	one = true
	origins := p.Model.OriginsAcross(it)
	for i, o := range origins {
		if o.Annotation {
			continue // `train_data: DataLoader` says nothing of its pinning
		}
		if o.Def != nil && o.Def.Class && o.Call != nil && wrapsLoader(o.Call) {
			continue // CutMixLoader(loader, alpha) if cutmix else loader
		}
		e := o.Expr
		m := p.Model
		if o.Model != nil {
			m = o.Model
		}
		if e == nil || e.Type != "call" || o.Index >= 0 || calleeKind(m.CalleeName(e)).Kind != KindLoader {
			return false, nil, false
		}
		if rewrite.HasSplat(e) && (o.Model != nil || !splatsKnown(p, e)) {
			return false, nil, false
		}
		// Pinned on every path, or on some (`if use_cuda:
		// kwargs.update(pin_memory=True)`): non_blocking=True is harmless
		// where it is not.
		var pin *rewrite.Node
		collate := rewrite.KeywordValue(e, "collate_fn") != nil
		if o.Model != nil {
			pin = rewrite.KeywordValue(e, "pin_memory")
		} else {
			pin, _, _ = callKeyword(p, e, "pin_memory")
			_, _, collate = callKeyword(p, e, "collate_fn")
		}
		if !knownTrue(m, pin) || collate {
			return false, nil, false
		}
		pinned = true
		if o.Across && across == nil {
			across = &origins[i]
		}
		if n, ok := intBound(&widthFrame{m: p.Model, walk: &widthWalk{}}, rewrite.Arg(e, 1, "batch_size"), 0); o.Model != nil || !ok || n != 1 {
			one = false
		}
	}
	return pinned, across, one && pinned
}

// knownTrue reports a literal True, or a name whose every origin is one
// (`pin_memory=PIN_MEMORY` with PIN_MEMORY = True, a parameter every call
// site passes True).
func knownTrue(m *rewrite.Model, n *rewrite.Node) bool {
	if n == nil || n.Type != "identifier" {
		return isTrueLit(n)
	}
	found := false
	for _, o := range m.Origins(n) {
		if o.Annotation {
			continue
		}
		if o.Model != nil || !isTrueLit(o.Expr) {
			return false
		}
		found = true
	}
	return found
}

// wrapsLoader reports a call of a project class whose first argument is
// a name of a loader (`CutMixLoader(loader, alpha)`): its batches come
// from that loader, which the other origins tell about.
func wrapsLoader(call *rewrite.Node) bool {
	pos := rewrite.PositionalArgs(call)
	return len(pos) > 0 && pos[0].Type == "identifier" && loaderLikeName(strings.ToLower(pos[0].Text()))
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

func checkBatchCopies(p *Pass, loop *rewrite.Node, across *rewrite.Origin) {
	targets := map[string]bool{}
	left := loop.ChildByField("left")
	left.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" {
			targets[n.Text()] = true
		}
		return true
	})
	aliases := batchAliases(loop, targets)
	walkLoopBody(p.Model, loop, func(call *rewrite.Node) {
		if call.Type != "call" {
			return
		}
		_, ok, moved := p.Model.MoveTarget(call)
		if !ok || asksAsync(call) {
			return
		}
		obj := batchItemRoot(moved)
		if obj == nil || !targets[obj.Text()] && aliases[obj.Text()] == nil {
			return
		}
		conversion := ""
		if moved != obj && moved.Type == "call" {
			// `x.float().cuda()`: unless the batch is float32 already, the
			// conversion makes a new tensor in pageable memory, which
			// non_blocking cannot copy asynchronously (blind sample KK: 16
			// such fixes that did nothing on one file). Other calls before
			// the move (a permute, a computation) are left alone.
			conversion = callAttr(moved)
			if !dtypeMethods[conversion] || len(moved.ChildByField("arguments").NamedChildren()) > 0 || moved.ChildByField("function").ChildByField("object").Type == "call" {
				return
			}
		}
		if p.Model.MoveKind(call) == rewrite.DeviceOther {
			return
		}
		if st := call.Parent; st != nil && st.Type == "expression_statement" {
			// `data.to(device)` alone: Tensor.to returns the copy, which
			// is dropped, so the batch never reaches the GPU and
			// non_blocking changes nothing (blind samples S22I, S23M).
			return
		}
		// The name must be the loop's own binding, or a name the loop body
		// gives an item of it (`images = batch["image"]`) before the copy.
		bs := p.Model.Bindings(obj)
		own := false
		for _, b := range bs {
			if targets[obj.Text()] && b.Stmt == loop {
				own = true
			}
			if a := aliases[obj.Text()]; a != nil && (b.Stmt == a || b.Stmt == a.Parent) && a.End < call.Start {
				own = true
			}
		}
		if !own {
			return
		}
		for _, b := range bs {
			// Rebound in the body before the copy (`points =
			// torch.Tensor(points.numpy())` after an augmentation): no
			// longer the pinned batch.
			if b.Stmt != nil && b.Stmt != loop && loop.Contains(b.Stmt) && b.Stmt.End <= call.Start && b.Stmt != aliases[obj.Text()] && b.Stmt != aliasStmt(aliases[obj.Text()]) &&
				b.Stmt.Ancestor("block") != nil && b.Stmt.Ancestor("block").Contains(call) { // (not another branch's `images = images.cuda()`)
				return
			}
		}
		if moved == obj && !sourceDoneAfter(p, obj, call, loop) || moved != obj && readAfter(p, moved, call, loop) {
			return
		}
		if waitedForNext(call) || maybeBatchEncoding(p, moved) {
			return
		}
		args := call.ChildByField("arguments")
		e, ok := rewrite.AppendItem(args, "non_blocking=True")
		if !ok {
			return
		}
		if conversion != "" {
			src := moved.ChildByField("function").ChildByField("object").Text()
			inner := strings.TrimSuffix(strings.TrimPrefix(args.Text(), "("), ")")
			if strings.TrimSpace(inner) != "" {
				inner += ", "
			}
			p.Report(call, "this batch comes from a pinned DataLoader, but ."+conversion+"() before the copy makes a new tensor in pageable memory unless the batch already has that dtype, and non_blocking=True does nothing there: copy first, then convert ("+src+"."+callAttr(call)+"("+inner+"non_blocking=True)."+conversion+"())", nil)
			return
		}
		msg := "this batch comes from a pinned DataLoader: copy it with non_blocking=True so the host does not wait for each transfer; a blocking copy, however small, waits for every kernel already queued, so each copy of the step needs it"
		if stepSyncsExcept(p.Model, loop, func(*rewrite.Node) bool { return false }) {
			// Measured: a loop that reads .item() every step keeps
			// little of the gain (corpus/gpu/xfer002_small_copies.py).
			msg += " (this loop also reads a result on the host every step, which waits for the GPU anyway: the copies overlap in full once that read goes)"
		}
		safety := rewrite.Safe
		if across != nil {
			// The loader was found in another module: say so, and let the
			// user look before the fix applies.
			msg += " (assumes the loader is the pinned DataLoader " + across.Via + ")"
			safety = rewrite.Unsafe
		}
		p.Report(call, msg, Fix(safety, "Pass non_blocking=True", e))
	})
}

// waitedForNext reports a copy `x = batch.to(device)` whose result the
// host reads back before any other use: the next statement of the block
// that names x asserts on it, tests it in an if or a while, or reads it to
// the host (`max(y)`, `x.item()`). The host waits for the copy right
// there, so non_blocking overlaps nothing (blind sample S36A's x-vector
// trainer, `assert max(Y) < n` and `if torch.isnan(X).any():` after the
// copies).
func waitedForNext(call *rewrite.Node) bool {
	asg := call.Parent
	if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != call {
		return false
	}
	target := asg.ChildByField("left")
	if target == nil || target.Type != "identifier" {
		return false
	}
	stmt := rewrite.Statement(call)
	if stmt == nil || stmt.Parent == nil {
		return false
	}
	after := false
	for _, next := range stmt.Parent.Children {
		if next == stmt {
			after = true
			continue
		}
		if !after || !next.Named {
			continue
		}
		if mentions(next, target.Text()) {
			return hostReadOf(next, target.Text())
		}
	}
	return false
}

// mentions reports an identifier spelt name inside n.
func mentions(n *rewrite.Node, name string) bool {
	found := false
	n.Walk(func(c *rewrite.Node) bool {
		if c.Type == "identifier" && c.Text() == name {
			found = true
		}
		return !found
	})
	return found
}

// hostReads are the builtins that read a tensor's values to the host
// (`max(y)`, `float(x)`), and hostReadMethods the tensor methods that do:
// `x.float()` or `x.sum()` stays on the device (blind sample S37AJ's
// SFCNN, whose `grids = grids.float()` after the copy hid its finding).
var (
	hostReads       = map[string]bool{"max": true, "min": true, "sum": true, "list": true, "bool": true, "float": true, "int": true, "any": true, "all": true}
	hostReadMethods = map[string]bool{"item": true, "tolist": true, "cpu": true, "numpy": true}
)

// hostReadOf reports a statement whose first use of name reads its values
// on the host (see waitedForNext).
func hostReadOf(stmt *rewrite.Node, name string) bool {
	switch stmt.Type {
	case "assert_statement":
		return true
	case "if_statement", "while_statement":
		cond := stmt.ChildByField("condition")
		return cond != nil && mentions(cond, name) && !onlyMetadata(cond, name)
	case "try_statement":
		if body := stmt.ChildByField("body"); body != nil {
			for _, c := range body.Children {
				if c.Named {
					return mentions(c, name) && hostReadOf(c, name)
				}
			}
		}
		return false
	}
	read := false
	stmt.Walk(func(n *rewrite.Node) bool {
		if n.Type != "call" {
			return !read
		}
		fn := n.ChildByField("function")
		switch {
		case fn.Type == "identifier" && hostReads[fn.Text()]:
			for _, a := range n.ChildByField("arguments").NamedChildren() {
				read = read || a.Type == "identifier" && a.Text() == name
			}
		case fn.Type == "attribute" && hostReadMethods[fn.ChildByField("attribute").Text()]:
			obj := fn.ChildByField("object")
			read = read || obj.Type == "identifier" && obj.Text() == name
		}
		return !read
	})
	return read
}

// onlyMetadata reports a condition that reads name's shape, size, dtype
// or device only, or tests it against None: no values, no wait.
func onlyMetadata(cond *rewrite.Node, name string) bool {
	only := true
	cond.Walk(func(n *rewrite.Node) bool {
		if n.Type != "identifier" || n.Text() != name {
			return true
		}
		par := n.Parent
		switch {
		case par.Type == "attribute" && par.ChildByField("object") == n:
			switch par.ChildByField("attribute").Text() {
			case "shape", "size", "dtype", "device", "ndim", "dim", "is_cuda":
				return false
			}
		case par.Type == "comparison_operator" && strings.Contains(par.Text(), "None"):
			return false
		case par.Type == "argument_list" && par.Parent.ChildByField("function").Text() == "len":
			return false
		}
		only = false
		return false
	})
	return only
}

// aliasStmt is the statement of an alias assignment (nil for nil).
func aliasStmt(asg *rewrite.Node) *rewrite.Node {
	if asg == nil {
		return nil
	}
	return asg.Parent
}

// batchAliases returns the names the loop body's own statements assign
// from the loop's batch (`images, masks = batch["image"], batch["mask"]`,
// `x, y = batch`), each with its one assignment; a name assigned twice in
// the body is left out.
func batchAliases(loop *rewrite.Node, targets map[string]bool) map[string]*rewrite.Node {
	out := map[string]*rewrite.Node{}
	twice := map[string]bool{}
	body := rewrite.LoopBody(loop)
	if body == nil {
		return out
	}
	add := func(left, right, asg *rewrite.Node) {
		if left.Type != "identifier" {
			return
		}
		if root := batchItemRoot(right); root == nil || !targets[root.Text()] {
			return
		}
		if out[left.Text()] != nil {
			twice[left.Text()] = true
		}
		out[left.Text()] = asg
	}
	for _, st := range body.NamedChildren() {
		if st.Type != "expression_statement" || len(st.NamedChildren()) != 1 || st.NamedChildren()[0].Type != "assignment" {
			continue
		}
		asg := st.NamedChildren()[0]
		left, right := asg.ChildByField("left"), asg.ChildByField("right")
		if left == nil || right == nil {
			continue
		}
		switch {
		case left.Is("pattern_list", "tuple_pattern") && right.Is("expression_list", "tuple") && len(left.NamedChildren()) == len(right.NamedChildren()):
			for i, l := range left.NamedChildren() {
				add(l, right.NamedChildren()[i], asg)
			}
		case left.Is("pattern_list", "tuple_pattern") && right.Type == "identifier":
			for _, l := range left.NamedChildren() {
				add(l, right, asg) // x, y = batch
			}
		default:
			add(left, right, asg)
		}
	}
	for name := range twice {
		delete(out, name)
	}
	return out
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

// batchTensorMethods return a tensor built from the one they are called
// on (itself when nothing changes).
var batchTensorMethods = map[string]bool{"float": true, "long": true, "int": true, "half": true,
	"double": true, "bfloat16": true, "contiguous": true}

// batchItemRoot returns the loop variable a moved expression reads: the
// name itself, an item of it (`data["image"]`, `batch[0]`), a dtype
// conversion of those (`data["target"].float()`), or a bare Variable of
// them (`Variable(data[0])`); nil otherwise.
func batchItemRoot(n *rewrite.Node) *rewrite.Node {
	for n != nil {
		switch n.Type {
		case "identifier":
			return n
		case "subscript":
			k := n.ChildByField("subscript")
			if k == nil || !k.Is("string", "integer") {
				return nil
			}
			n = n.ChildByField("value")
		case "call":
			fn := n.ChildByField("function")
			args := n.ChildByField("arguments").NamedChildren()
			if fn != nil && (fn.Type == "identifier" && fn.Text() == "Variable" || fn.Type == "attribute" && fn.Text() == "autograd.Variable") && len(args) == 1 && args[0].Type != "keyword_argument" {
				n = args[0] // Variable(data[0]): pre-0.4 code, the same tensor today (blind sample S25L's BasicVSR)
				continue
			}
			if fn == nil || fn.Type != "attribute" || !batchTensorMethods[fn.ChildByField("attribute").Text()] || len(args) > 0 {
				return nil
			}
			n = fn.ChildByField("object")
		default:
			return nil
		}
	}
	return nil
}

// readAfter reports the expression moved (an item of a batch) read again,
// spelt the same, after the copy call in the loop body.
func readAfter(p *Pass, moved, call, loop *rewrite.Node) bool {
	text := moved.Text()
	// The entry replaced after the copy (`batch["rgb"] = rgb / 255.0`, in
	// the copy's block): from there on the name holds the new value, not
	// the pinned tensor (blind sample S38E's Food_Calories_Estimation,
	// whose image copies were passed over while the label's was reported).
	replaced := -1
	if st := rewrite.Statement(call); st != nil && st.Parent != nil {
		for _, next := range st.Parent.Children {
			if next.Start > call.End && replaced < 0 && next.Type == "expression_statement" && len(next.NamedChildren()) == 1 {
				if asg := next.NamedChildren()[0]; asg.Type == "assignment" && asg.ChildByField("right") != nil && asg.ChildByField("left").Text() == text && !mentionsText(asg.ChildByField("right"), text) {
					replaced = asg.ChildByField("left").Start
				}
			}
		}
	}
	later := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if n.Start > call.End && n.Type == moved.Type && n.Text() == text && (replaced < 0 || n.Start < replaced) {
			later = true
		}
	})
	return later
}

// mentionsText reports a node of n spelt text.
func mentionsText(n *rewrite.Node, text string) bool {
	found := false
	n.Walk(func(c *rewrite.Node) bool {
		found = found || c.Text() == text
		return !found
	})
	return found
}

// loopWrapper names the callables a loop wraps its iterable in.
func loopWrapper(q string) bool {
	return q == "enumerate" || q == "tqdm.tqdm" || q == "tqdm.auto.tqdm" || q == "tqdm"
}

// asksAsync reports a copy that already asks to be asynchronous:
// non_blocking=, or async=, its name before PyTorch 0.4 (`.cuda(async=True)`,
// a syntax error since Python 3.7, reported as E999: blind sample S16B).
func asksAsync(call *rewrite.Node) bool {
	return rewrite.KeywordArg(call, "non_blocking") != nil || rewrite.KeywordArg(call, "async") != nil
}

// maybeBatchEncoding reports a copied batch item that may be a Hugging
// Face BatchEncoding rather than a tensor: in a project that tokenizes,
// an item taken by position (`batch[0].to(device)`) or the whole batch.
// BatchEncoding.to takes no non_blocking before transformers 4.48, so the
// fix raises TypeError at the first step (blind sample S40O's CAIL2018
// BERT, pinned to 4.20). An item taken by key (`batch["input_ids"]`) is
// a tensor.
func maybeBatchEncoding(p *Pass, moved *rewrite.Node) bool {
	if !p.Model.ProjectSpells("tokenizer", "BatchEncoding", "encode_plus", "batch_encode_plus") {
		return false
	}
	if moved.Type == "subscript" {
		if key := moved.ChildByField("subscript"); key != nil && key.Type == "string" {
			return false
		}
	}
	return true
}

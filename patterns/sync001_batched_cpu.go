package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// BatchedCPU is SYNC001.
var BatchedCPU = &Rule{
	Code:      "SYNC001",
	Name:      "batched-cpu-transfer",
	Title:     "Keep per-step outputs on the GPU and convert once after the loop",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"cpu", "tolist"}, // every finding is an appended t.cpu() or t.tolist()
	Check:     checkBatchedCPU,
}

func init() { Register(BatchedCPU) }

// sync1ListConsumers maps a consumer of the collected list to the torch call
// that replaces it (empty: keep the call) and whether it returns NumPy.
var sync1ListConsumers = map[string]struct {
	torch string
	numpy bool
}{
	"numpy.concatenate": {"torch.cat", true},
	"numpy.stack":       {"torch.stack", true},
	"numpy.vstack":      {"torch.vstack", true},
	"numpy.hstack":      {"torch.hstack", true},
	"numpy.array":       {"torch.stack", true},
	"numpy.asarray":     {"torch.stack", true},
	"torch.cat":         {"torch.cat", false},
	"torch.concat":      {"torch.cat", false},
	"torch.concatenate": {"torch.cat", false},
	"torch.stack":       {"torch.stack", false},
	"torch.vstack":      {"torch.vstack", false},
	"torch.hstack":      {"torch.hstack", false},
	"sum":               {"", false},
}

func checkBatchedCPU(p *Pass) {
	m := p.Model
	// acc.extend(t.cpu().numpy().tolist()) converts per step as well (the
	// list then holds numbers or rows, not tensors): reported, no fix.
	calls := append(slices.Clip(p.File.MethodCalls("append")), p.File.MethodCalls("extend")...)
	var hints []sync1Hint
	defer func() { reportSync1Hints(p, hints) }()
	for _, call := range calls {
		fn := call.ChildByField("function")
		extend := fn.ChildByField("attribute").Text() == "extend"
		acc := fn.ChildByField("object")
		stmt := call.Parent
		if acc.Type != "identifier" || stmt == nil || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
			continue
		}
		args := call.ChildByField("arguments")
		if args == nil || len(args.NamedChildren()) != 1 || len(rewrite.PositionalArgs(call)) != 1 {
			continue
		}
		loops := m.EnclosingLoops(call)
		if len(loops) == 0 || !m.Loop(loops[0]).Hot() || periodicLoop(p, loops) {
			continue
		}
		loop := loops[0]
		if hotInnerLoop(p, loop) || hostBatchLoop(p, loop) || onePassPerCall(p, loops) {
			continue // the steps are an inner loop's (this copy runs once per epoch or fold), or run on the CPU
		}
		if everyFewSteps(m, loop, call) {
			continue // `if i % 20 == 0: frames.append(x.cpu())`: a copy every few steps (blind sample S16O's diffusion sampler)
		}
		if debugBranch(call, loop) {
			continue // `if debug: xs.append(x.cpu())`: kept only when a developer asks
		}
		if underOneStepGuard(loop, call) {
			continue // `if epoch == 119: images.append(x.cpu())`: one step, or one pass of the run (blind sample S37H's TensorBoard embeddings)
		}
		if !m.Loop(loop).Trains() && !chunkLoop(loop) && !hostWorkPerStep(p, loop) {
			// An evaluation or prediction pass whose step is the model's
			// forward and the copies: no host work to overlap, so one
			// large copy after the loop gains nothing (0.63× measured on
			// large outputs, CATALOG.md); judged negligible or false
			// thirteen times (blind samples S25D, S28E, S29E, S30L, S31P,
			// S32O). A loop that slices its input into chunks itself
			// (`for i in range(0, n, bs)`: S30B, S31L), drives a progress
			// bar, or calls host code per step keeps the finding.
			continue
		}
		if !m.Loop(loop).Trains() && len(loops) == 1 && loop.Ancestor("function_definition") != nil && runsOnce(m, loop, 0) {
			// One pass that trains nothing, in a function called once
			// outside any loop (a threshold or a
			// test score computed after training: blind samples S28E's
			// LogADEmpirical, S24D's IRN, S26K's GTZAN): the copies cost a
			// share of a pass that runs once. (A script's top-level
			// prediction loop, the catalog's example, keeps the finding.)
			continue
		}
		arg := rewrite.PositionalArgs(call)[0]
		base, cpu, numpy, tolist, detach := sync1StripConversions(arg)
		if base == nil || !(cpu || tolist) || base.Type == "call" && rewrite.HasSplat(base) {
			continue
		}
		if root := rewrite.RootName(base); root != nil && loaderBatchAt(p, root, arg) {
			continue // the loader's batch, still on the host: .cpu() copies nothing
		}
		const pays = " Pays when the loop does CPU work per step (up to 1.16× measured on an H100); a loop that only moves large outputs can get slower (0.63× measured), and every output stays in GPU memory until the loop ends."
		if extend && !cpu {
			continue // x.tolist() may be NumPy's: only a visible .cpu() says tensor
		}
		if sync1ReadInLoop(m, acc, loop) {
			continue // the list is used every step: the per-step copy is needed
		}
		if sync1StepSyncsAnyway(p, loop) {
			continue // `losses.append(loss.item())` beside it: the step waits anyway
		}
		if tolist || extend {
			if !tolist {
				hint := "per-step .cpu() synchronises with the GPU every step: extend the list once after the loop from the concatenated device tensors (by hand: torch.cat(...).cpu().numpy())."
				hints = append(hints, sync1Hint{loop, arg, hint, pays})
				continue
			}
			hints = append(hints, sync1Hint{loop, arg, "per-step .tolist() synchronises with the GPU every step: collect device tensors and convert once after the loop (by hand: the list's consumers see Python numbers).", pays})
			continue
		}
		also := accumulatedItemNote(p, loop)
		hint := func(why string) {
			hints = append(hints, sync1Hint{loop, arg, "per-step .cpu() synchronises with the GPU every step: append the device tensor and convert once after the loop (" + why + ")." + also, pays})
		}
		root := rewrite.RootName(base)
		if root == nil || !m.FreshPerIteration(root, loop) || rewrite.InPlaceMutated(rewrite.LoopBody(loop), root.Text()) || !sync1BoundBefore(m, root, loop, arg) {
			hint("gpuopt cannot tell that the appended tensor is a new value every step")
			continue
		}
		consumer, ok := sync1SyncListConsumer(m, acc, loop, call)
		if !ok {
			hint("the list's consumer after the loop is not one gpuopt rewrites")
			continue
		}
		spec := sync1ListConsumers[m.CalleeName(consumer)]
		kept := base.Text()
		if detach {
			kept += ".detach()"
		}
		repl, ok := sync1ConsumerReplacement(p, consumer, spec.torch, acc.Text())
		if !ok {
			hint("torch is not imported under a name gpuopt can use there")
			continue
		}
		if spec.numpy || numpy {
			repl += ".cpu().numpy()"
		} else {
			repl += ".cpu()"
		}
		edits := []rewrite.Edit{
			{Start: arg.Start, End: arg.End, New: kept},
			{Start: consumer.Start, End: consumer.End, New: repl},
		}
		p.Report(arg, "per-step .cpu() synchronises with the GPU every step: append the device tensor and convert once after the loop ("+repl+")."+also+pays,
			Fix(rewrite.Unsafe, "Append the device tensor; convert once after the loop", edits...))
	}
}

// sync1Hint is a SYNC001 finding without a fix, held until the loop's
// others are known.
type sync1Hint struct {
	loop, arg *rewrite.Node
	msg, pays string
}

// reportSync1Hints reports the fixless findings, one per loop: the step
// waits at its first copy, and the others then wait for nothing, so one
// finding names them all (blind sample S39H's evaluation loop, whose
// three `.cpu()` extends were three findings).
func reportSync1Hints(p *Pass, hints []sync1Hint) {
	slices.SortStableFunc(hints, func(a, b sync1Hint) int { return a.arg.Start - b.arg.Start })
	done := map[*rewrite.Node]bool{}
	for i, h := range hints {
		if done[h.loop] {
			continue
		}
		done[h.loop] = true
		var others []string
		for _, o := range hints[i+1:] {
			if o.loop == h.loop {
				others = append(others, p.LineOf(o.arg))
			}
		}
		msg := h.msg
		if len(others) > 0 {
			msg += " The step's other per-step copies to lists (" + linesPhrase(others) + ") wait for nothing once this one has waited: move them all."
		}
		p.Report(h.arg, msg+h.pays, nil)
	}
}

// chunkLoop reports a for loop over range(...): one that indexes or
// slices its input itself, step by step.
func chunkLoop(loop *rewrite.Node) bool {
	it := loop.ChildByField("right")
	if loop.Type != "for_statement" || it == nil || it.Type != "call" {
		return false
	}
	fn := it.ChildByField("function")
	return fn != nil && fn.Type == "identifier" && fn.Text() == "range"
}

// hostWorkPerStep reports a loop whose step runs host code besides the
// model and torch: a progress bar it iterates or updates (tqdm), or a
// call of NumPy, SciPy, scikit-learn, PIL, OpenCV or the project, or a
// method of self that is not a network (a tokenizer, a metric, a
// decoder). Printing, logging, Python builtins, torch functions, tensor
// methods and the model's forward are not host work.
func hostWorkPerStep(p *Pass, loop *rewrite.Node) bool {
	type key struct{ loop *rewrite.Node }
	return p.Model.Memo(key{loop}, func() any { return hostWorkScan(p, loop) }).(bool)
}

// hostWorkScan is hostWorkPerStep, uncached (asked once per append of a
// loop that may hold thousands).
func hostWorkScan(p *Pass, loop *rewrite.Node) bool {
	if it := loop.ChildByField("right"); it != nil && strings.Contains(it.Text(), "tqdm") || loopIteratesBar(p, loop) {
		return true
	}
	for _, n := range p.Model.LoopBodyNodes(loop) {
		if n.Type == "call" && hostCall(p, n, 0) {
			return true
		}
	}
	return false
}

// hostCall reports a call of host code (hostWorkPerStep's reading). A
// method of self counts unless its body, read one level down, only runs
// torch, tensor methods and layers (`self.model_forward(model, batch)`,
// `self.postprocess_quantiles(pred)`: blind sample S38A's forecasting
// pipeline) or only raises (an abstract method).
func hostCall(p *Pass, n *rewrite.Node, depth int) bool {
	fn := n.ChildByField("function")
	switch {
	case fn == nil:
	case fn.Type == "identifier":
		if pythonBuiltins[fn.Text()] || p.Model.IsModule(fn) {
			return false
		}
		if q := p.Model.CalleeName(n); q == "" || strings.HasPrefix(q, "torch.") {
			return false
		}
		return true
	case fn.Type == "attribute":
		if logCall(fn) || p.Model.IsModule(fn) {
			return false
		}
		q := p.Model.CalleeName(n)
		obj := fn.ChildByField("object")
		switch {
		case strings.HasPrefix(q, "tqdm") || fn.ChildByField("attribute").Text() == "set_postfix" || fn.ChildByField("attribute").Text() == "set_description":
			return true // a progress bar redrawn every step
		case q != "" && !strings.HasPrefix(q, "torch.") && !strings.HasPrefix(q, "builtins."):
			return true // np.argmax(...), metrics.f1_score(...), cv2.imwrite(...)
		case obj != nil && obj.Type == "identifier" && obj.Text() == "self":
			def := p.Model.CalledDef(n)
			if def == nil || def.Type != "function_definition" {
				return false
			}
			// self.decode(...): a method of the class, not a layer; host
			// work unless its own calls are all device work.
			if depth > 0 {
				return true
			}
			for _, c := range p.File.OfTypeIn(def.ChildByField("body"), "call") {
				if hostCall(p, c, depth+1) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// loopIteratesBar reports a loop over a name bound to a tqdm bar (`bar =
// tqdm(enumerate(loader))` then `for step, data in bar:`).
func loopIteratesBar(p *Pass, loop *rewrite.Node) bool {
	it := loop.ChildByField("right")
	if it == nil || it.Type != "identifier" {
		return false
	}
	for _, b := range p.Model.Bindings(it) {
		if b.Value != nil && strings.Contains(b.Value.Text(), "tqdm") {
			return true
		}
	}
	return false
}

// sync1StripConversions peels `.cpu()`, `.numpy()`, `.tolist()` and `.detach()`
// calls (no arguments) off the end of an expression.
func sync1StripConversions(e *rewrite.Node) (base *rewrite.Node, cpu, numpy, tolist, detach bool) {
	for e != nil && e.Type == "call" {
		fn := e.ChildByField("function")
		args := e.ChildByField("arguments")
		if fn == nil || fn.Type != "attribute" || args == nil || len(args.NamedChildren()) != 0 {
			break
		}
		switch fn.ChildByField("attribute").Text() {
		case "cpu":
			cpu = true
		case "numpy":
			numpy = true
		case "tolist":
			tolist = true
		case "detach":
			detach = true
		default:
			return e, cpu, numpy, tolist, detach
		}
		e = fn.ChildByField("object")
	}
	return e, cpu, numpy, tolist, detach
}

// sync1BoundBefore reports whether the in-loop binding of root comes before use
// (so the first iteration does not read a value from before the loop).
func sync1BoundBefore(m *rewrite.Model, root, loop, use *rewrite.Node) bool {
	s := m.VarScope(root)
	for _, b := range s.Bindings[root.Text()] {
		if loop.Contains(b.Ident) && b.Kind == rewrite.AssignBinding && b.Stmt.End > use.Start {
			return false
		}
	}
	return true
}

// sync1SyncListConsumer finds the one call after the loop that consumes the list
// acc appended to at appendCall, checking that the list is created empty
// before the loop, only appended to there, and read nowhere else (len()
// aside).
func sync1SyncListConsumer(m *rewrite.Model, acc, loop, appendCall *rewrite.Node) (*rewrite.Node, bool) {
	s := m.VarScope(acc)
	if s == nil || s != m.ScopeOf(loop) {
		return nil, false
	}
	var init *rewrite.Binding
	for _, b := range s.Bindings[acc.Text()] {
		switch {
		case b.Stmt.End <= loop.Start:
			if init != nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "list" || len(b.Value.NamedChildren()) != 0 {
				return nil, false
			}
			init = b
		case loop.Contains(b.Ident):
			return nil, false
		}
	}
	if init == nil {
		return nil, false
	}
	var consumer *rewrite.Node
	for _, id := range m.Reads(s, acc.Text(), m.File.Root) {
		if id == acc {
			continue
		}
		if sync1IsLenArg(m, id) && (consumer == nil) {
			continue
		}
		if id.Start < loop.End || consumer != nil {
			return nil, false
		}
		if m.ScopeOf(id) != s || id.Parent.Type != "argument_list" {
			return nil, false
		}
		call := id.Parent.Parent
		_, ok := sync1ListConsumers[m.CalleeName(call)]
		if !ok || rewrite.PositionalArgs(call)[0] != id || !sync1ConsumerArgsOK(call, m.CalleeName(call)) {
			return nil, false
		}
		consumer = call
		// Later reads must see a rebinding made by the consumer's statement.
		st := rewrite.Statement(call)
		if st.Type == "expression_statement" && st.NamedChildren()[0].Type == "assignment" {
			if l := st.NamedChildren()[0].ChildByField("left"); l.Type == "identifier" && l.Text() == acc.Text() {
				return consumer, true
			}
		}
	}
	return consumer, consumer != nil
}

// sync1IsLenArg reports whether id is the sole argument of the builtin len().
func sync1IsLenArg(m *rewrite.Model, id *rewrite.Node) bool {
	return id.Parent.Type == "argument_list" && len(id.Parent.NamedChildren()) == 1 && m.CalleeName(id.Parent.Parent) == "len"
}

// sync1ConsumerArgsOK accepts the list alone, or with an integer axis (NumPy's
// axis=, torch's dim= or second positional).
func sync1ConsumerArgsOK(call *rewrite.Node, callee string) bool {
	args := call.ChildByField("arguments").NamedChildren()
	if len(args) == 1 {
		return true
	}
	numpy := strings.HasPrefix(callee, "numpy.")
	switch callee {
	case "numpy.concatenate", "numpy.stack", "torch.cat", "torch.concat", "torch.concatenate", "torch.stack":
	default:
		return false
	}
	if len(args) != 2 || rewrite.HasSplat(call) {
		return false
	}
	a := args[1]
	if numpy && a.Type != "keyword_argument" {
		return false // np.concatenate's second positional is axis, but keep to the spelled-out form
	}
	if a.Type == "keyword_argument" {
		name := a.ChildByField("name").Text()
		if !(numpy && name == "axis" || !numpy && name == "dim") {
			return false
		}
		a = a.ChildByField("value")
	}
	return a.Type == "integer" || a.Type == "unary_operator" && a.ChildByField("argument").Type == "integer"
}

// sync1ConsumerReplacement spells the torch call that replaces consumer.
func sync1ConsumerReplacement(p *Pass, consumer *rewrite.Node, torchName, acc string) (string, bool) {
	if torchName == "" { // sum
		return consumer.Text(), true
	}
	name, ok := p.Model.LocalName(consumer, torchName)
	if !ok {
		return "", false
	}
	args := consumer.ChildByField("arguments").NamedChildren()
	if len(args) == 1 {
		return name + "(" + acc + ")", true
	}
	a := args[1]
	if a.Type == "keyword_argument" {
		a = a.ChildByField("value")
	}
	return name + "(" + acc + ", dim=" + a.Text() + ")", true
}

// sync1ReadInLoop reports whether the list acc is read inside loop other than by
// this append and len().
func sync1ReadInLoop(m *rewrite.Model, acc, loop *rewrite.Node) bool {
	return readInLoop(m, acc, loop, false)
}

// readInLoop reports whether the list acc is read inside loop other than
// by acc itself and len(); with otherAppends, `acc.append(...)` elsewhere
// in the loop is no read either (the appends of both branches of an `if
// use_amp:`).
func readInLoop(m *rewrite.Model, acc, loop *rewrite.Node, otherAppends bool) bool {
	s := m.VarScope(acc)
	if s == nil {
		return true
	}
	for _, id := range m.Reads(s, acc.Text(), loop) {
		if id == acc || sync1IsLenArg(m, id) {
			continue
		}
		if attr := id.Parent; otherAppends && attr != nil && attr.Type == "attribute" && attr.ChildByField("object") == id &&
			attr.ChildByField("attribute").Text() == "append" && attr.Parent != nil && attr.Parent.Type == "call" {
			continue
		}
		return true
	}
	return false
}

// loaderBatchAt reports a name that, where it is read (site), still holds
// what a DataLoader yielded: its reaching binding is the target of an
// enclosing for loop over a loader, not yet rebound by a move such as
// `label = label.to(device)` further down. A loader's batches are on the
// host (gpuopt reports datasets that yield CUDA tensors elsewhere), so
// `.cpu()` there neither copies nor synchronises.
func loaderBatchAt(p *Pass, ident, site *rewrite.Node) bool {
	b := p.Model.ReachingBinding(ident, site)
	if val := rewrite.AssignedValue(b); val != nil && val.Type == "subscript" && b.Stmt != nil && b.Stmt.Start < site.Start {
		// `i_batch = batch[1]`, `id, ids = batch["idx"], batch["input_ids"]`:
		// an element of the loader's batch.
		if v := val.ChildByField("value"); v != nil && v.Type == "identifier" {
			return loaderBatchAt(p, v, b.Stmt)
		}
	}
	if b == nil || b.Stmt == nil || b.Stmt.Type != "for_statement" || !b.Stmt.Contains(site) {
		return false
	}
	left := b.Stmt.ChildByField("left")
	if left == nil || !left.Contains(b.Ident) {
		return false
	}
	it := loopIterable(p.Model, b.Stmt)
	return p.Model.IsDataLoader(b.Stmt.ChildByField("right")) || p.Model.IsDataLoader(it) || overLoader(p.Model, b.Stmt) || hostLoaderWrapper(p, it)
}

// hostLoaderWrapper reports an iterable (seen through enumerate and tqdm:
// loopIterable) built by a class of the project that wraps a torch
// DataLoader in a module that never targets CUDA (kaggle_jigsaw's
// LengthBucketingDataLoader): its batches are the wrapped loader's, on
// the host.
func hostLoaderWrapper(p *Pass, e *rewrite.Node) bool {
	if e == nil || e.Type != "call" {
		return false
	}
	d := p.Model.ImportedDef(e.ChildByField("function"))
	return d != nil && d.Class && !d.UsesCUDA && (slices.Contains(d.Calls, "torch.utils.data.DataLoader") || slices.Contains(d.Calls, "torch.utils.data.dataloader.DataLoader"))
}

// hotInnerLoop reports a loop whose steps are those of a loop nested in it
// (`for fold in folds:` around `for x, y in loader:`), or of a function
// it calls that runs one, of this file or a project module (N-BEATS'
// `model = trainer(...)` per seasonal pattern: blind sample S15E): what it
// appends it appends once per pass of the inner loop, not per step.
func hotInnerLoop(p *Pass, loop *rewrite.Node) bool {
	m := p.Model
	type key struct{ loop *rewrite.Node }
	return m.Memo(key{loop}, func() any {
		for _, n := range m.LoopBodyNodes(loop) {
			if rewrite.IsLoop(n) && m.Loop(n).Hot() {
				return true
			}
			if n.Type == "call" && (holdsHotLoop(m, m.FunctionDef(n), 0) || importedHotLoop(p, n)) {
				return true
			}
		}
		return false
	}).(bool)
}

// accumulatedItemNote names the lines of a loop's running totals of
// `.item()` (`final_loss += loss.item()`), which wait for the GPU every
// step too: deferring the appended copies alone gains nothing while they
// stay (blind sample WW: a Kaggle MoA validation loop). "" when none.
func accumulatedItemNote(p *Pass, loop *rewrite.Node) string {
	var lines []string
	stepSyncs(p.Model, loop, func(n *rewrite.Node, method string) bool {
		if st := rewrite.Statement(n); method == "item" && st != nil && sync2IsAccumulation(st) {
			if l := p.LineOf(n); !slices.Contains(lines, l) {
				lines = append(lines, l)
			}
		}
		return false
	})
	if len(lines) == 0 {
		return ""
	}
	return " The step also waits for the running total's .item() at line " + strings.Join(lines, ", ") + ": accumulate it on the device too (SYNC002), or this change alone gains nothing."
}

// sync1StepSyncsAnyway reports a loop whose every step synchronises with
// the GPU through something this rule does not rewrite: an `.item()` that
// is not a running total SYNC002 moves to the device (`losses.append(
// loss.item())`, `print(loss.item())`), a `.cpu()`/`.numpy()` that is
// not appended to a list, or a function that copies inside
// (sync2SyncsInside). Deferring the appended copies then saves no wait:
// blind sample EE's DCRNN evaluation appended small outputs beside a
// per-step loss.item().
func sync1StepSyncsAnyway(p *Pass, loop *rewrite.Node) bool {
	m := p.Model
	return stepSyncs(m, loop, func(n *rewrite.Node, method string) bool {
		st := rewrite.Statement(n)
		if method == "" && isScalarConversion(n) && m.CalleeName(n) == n.ChildByField("function").Text() {
			// `loss_sum += float(criterion(logits, labels))`: float() of
			// a loss or a tensor waits for the GPU as .item() does (blind
			// sample S24E's HybridSN evaluation), on every step unless an
			// if that changes from step to step guards it.
			v := syncedValue(n)
			tensor := m.IsTensorExpr(v) || v.Type == "call" && (lossCall(v) || m.IsModule(v.ChildByField("function")))
			ifn := n.Ancestor("if_statement")
			return tensor && (ifn == nil || !loop.Contains(ifn) || loopInvariantCondition(m, ifn, loop))
		}
		switch method {
		case "item":
			return st == nil || !sync2IsAccumulation(st) || totalReadEveryStep(m, loop, st)
		case "cpu", "numpy":
			ifn := n.Ancestor("if_statement")
			// `y_true.append(data.y.cpu().to(torch.float))`: a copy inside
			// an expression this rule does not defer stays, so the step
			// waits anyway (blind sample S34W's SEAL link prediction,
			// whose logits' copy was reported beside it).
			stays := st != nil && sync1AppendStatement(st) && (ifn == nil || !loop.Contains(ifn)) && !deferrableAppend(st)
			if !stays && st != nil && sync1AppendStatement(st) && (ifn == nil || !loop.Contains(ifn)) {
				// Another list filled with host copies that the loop reads
				// itself (features flushed to an HDF5 file every 2048
				// samples): that copy stays, so the step waits anyway
				// (blind sample S20B's point-cloud feature export).
				acc := st.NamedChildren()[0].ChildByField("function").ChildByField("object")
				return acc.Is("identifier") && sync1ReadInLoop(m, acc, loop)
			}
			if !stays && (st == nil || sync1AppendStatement(st) || sync2IsAccumulation(st) || ifn != nil && loop.Contains(ifn) && !loopInvariantCondition(m, ifn, loop)) {
				return false
			}
			// A copy of the loader's batch, still on the host, waits for
			// nothing: a loader's batch (loaderBatchAt), or what the loop
			// itself iterates, never rebound in its body (`for data in
			// tqdm(loader):` ... `data["probs"].cpu()`).
			obj := n.ChildByField("function").ChildByField("object")
			root := rewrite.RootName(obj)
			return root == nil || !loaderBatchAt(p, root, obj) && !loopTarget(m, root, loop)
		}
		return false
	})
}

// totalReadEveryStep reports an accumulation `total += x.item()` whose
// total the loop reads on every step (`progress_bar(..., train_loss /
// (i + 1))`): the host needs the value each step, so the step waits
// anyway (blind sample S17E's pointMLP).
func totalReadEveryStep(m *rewrite.Model, loop, st *rewrite.Node) bool {
	total := st.NamedChildren()[0].ChildByField("left")
	s := m.VarScope(total)
	if s == nil {
		return false
	}
	for _, id := range m.Reads(s, total.Text(), loop) {
		if id != total && !st.Contains(id) && periodicGuard(m, loop, id, total.Text()) == nil && !everyFewSteps(m, loop, id) {
			return true
		}
	}
	return false
}

// loopInvariantCondition reports an if statement inside loop whose
// condition reads no name the loop binds (`if self.args.stacks == 1:`):
// every step takes the same branch, so a copy in each branch runs every
// step (blind sample S15H's SCINet, whose loss is computed on .cpu()
// copies in both branches of such an if).
func loopInvariantCondition(m *rewrite.Model, ifn, loop *rewrite.Node) bool {
	cond := ifn.ChildByField("condition")
	if cond == nil {
		return false
	}
	invariant := true
	cond.Walk(func(n *rewrite.Node) bool {
		if !invariant {
			return false
		}
		if n.Type == "call" {
			invariant = false // a call may read anything
			return false
		}
		if n.Type == "identifier" && (n.Parent == nil || n.Parent.Type != "attribute" || n.Parent.ChildByField("object") == n) {
			for _, b := range m.Bindings(n) {
				if loop.Contains(b.Ident) {
					invariant = false
				}
			}
		}
		return invariant
	})
	return invariant
}

// sync1AppendStatement reports `acc.append(...)` or `acc.extend(...)`.
func sync1AppendStatement(st *rewrite.Node) bool {
	if st.Type != "expression_statement" || len(st.NamedChildren()) != 1 {
		return false
	}
	c := st.NamedChildren()[0]
	if c.Type != "call" {
		return false
	}
	fn := c.ChildByField("function")
	return fn != nil && fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "append" || fn.ChildByField("attribute").Text() == "extend")
}

// deferrableAppend reports an append (or extend) statement whose
// argument is a value followed only by the conversions this rule strips
// (`.cpu()`, `.numpy()`, `.tolist()`, `.detach()`): a copy it defers.
func deferrableAppend(st *rewrite.Node) bool {
	args := rewrite.PositionalArgs(st.NamedChildren()[0])
	if len(args) != 1 {
		return false
	}
	base, cpu, _, tolist, _ := sync1StripConversions(args[0])
	return base != nil && (cpu || tolist)
}

// loopTarget reports a name bound only by loop's own target (`for data
// in ...`), not rebound in its body.
func loopTarget(m *rewrite.Model, id, loop *rewrite.Node) bool {
	bs := m.Bindings(id)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if b.Kind != rewrite.LoopBinding || b.Stmt != loop {
			return false
		}
	}
	return true
}

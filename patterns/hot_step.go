package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// perStepCallStatement returns the statement of a bare call statement
// `f(...)` that runs on every step of a hot loop, with that loop: the
// innermost loop around it is hot and holds no hot loop of its own, directly
// or in a same-file function it calls (a call in an epoch loop that wraps the
// step loop, or calls `train(...)`, ends a phase and is cheap), and
// no `if` / `else` / `except` / `finally` / `match` between the loop and the
// statement makes it conditional (a periodic or OOM-recovery call is
// deliberate). nil otherwise.
func perStepCallStatement(p *Pass, call *rewrite.Node) (stmt, loop *rewrite.Node) {
	stmt = call.Parent
	if stmt == nil || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
		return nil, nil
	}
	loops := p.Model.EnclosingLoops(call)
	if len(loops) == 0 || !p.Model.Loop(loops[0]).Hot() {
		return nil, nil
	}
	loop = loops[0]
	if hostBatchLoop(p, loop) {
		return nil, nil // a CPU step: nothing to wait for
	}
	for a := stmt.Parent; a != nil && a != loop; a = a.Parent {
		if a.Type == "if_statement" && mainProcessGuard(a.ChildByField("condition")) && !a.Contains(loop) {
			continue // `if rank == 0:` logs on every step of one process
		}
		if a.Is("if_statement", "elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause", "match_statement") {
			return nil, nil
		}
	}
	nested := false
	walkLoopBodyUntil(p.Model, loop, func(n *rewrite.Node) bool {
		if rewrite.IsLoop(n) && p.Model.Loop(n).Hot() {
			nested = true
		}
		if n.Type == "call" && (holdsHotLoop(p.Model, p.Model.FunctionDef(n), 0) || importedHotLoop(p, n)) {
			nested = true
		}
		return !nested
	})
	if nested {
		return nil, nil
	}
	return stmt, loop
}

// holdsHotLoop reports whether the same-file function def runs a hot loop
// itself or through the same-file functions it calls (two levels deep).
func holdsHotLoop(m *rewrite.Model, def *rewrite.Node, depth int) bool {
	if def == nil || depth > 2 {
		return false
	}
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n != def && n.Is("function_definition", "class_definition", "lambda") {
			return false
		}
		if rewrite.IsLoop(n) && m.Loop(n).Hot() {
			found = true
		} else if n.Type == "call" {
			if inner := m.FunctionDef(n); inner != def && holdsHotLoop(m, inner, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// importedHotLoop reports a call of a function of another project module
// (`train_one_epoch(...)` imported from engine.py) whose body runs a hot
// loop: the loop around the call is then the epoch loop, not the step.
func importedHotLoop(p *Pass, call *rewrite.Node) bool {
	d := p.Model.ImportedDef(call.ChildByField("function"))
	if d == nil || d.Class {
		return false
	}
	fm, def := p.Model.DefinitionOf(d)
	if def == nil || def.Type != "function_definition" {
		return false
	}
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n != def && rewrite.IsDefOrLambda(n) {
			return false
		}
		if rewrite.IsLoop(n) && fm.Loop(n).Hot() {
			found = true
		}
		return !found
	})
	return found
}

// mainProcessGuard reports an if condition that picks the process that
// logs in a distributed run, not the step: `rank == 0`, `args.nr == 0`,
// `args.local_rank in [-1, 0]`, `is_main_process()`,
// `accelerator.is_main_process` (SimCLR's `if args.nr == 0:` around a
// per-step add_scalar: blind sample XX). Such a block runs on every step
// of that process.
func mainProcessGuard(cond *rewrite.Node) bool {
	if cond == nil {
		return false
	}
	if cond.Type == "boolean_operator" || cond.Type == "not_operator" {
		return false
	}
	t := strings.ToLower(strings.Join(strings.Fields(cond.Text()), ""))
	if strings.Contains(t, "%") || strings.Contains(t, "step") || strings.Contains(t, "iter") || strings.Contains(t, "epoch") || strings.Contains(t, "batch") {
		return false
	}
	if strings.Contains(t, "main_process") || strings.Contains(t, "is_master") || strings.Contains(t, "is_main") {
		return true
	}
	for _, suffix := range []string{"rank==0", "nr==0", "rankin[-1,0]", "rankin(-1,0)", "rank<=0"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	return false
}

// hostBatchLoop reports a for loop that feeds the batches it draws
// straight to a call (`y_hat = net(X)`) and moves nothing to a device
// (no `.to(`, `.cuda(` or `device` in the function that holds it), in a file whose
// other loops move their batches (`X = X.to(device)`): its author moves
// batches where a step runs on the GPU, so this step runs on the CPU (a
// CUDA model fed CPU batches would fail). A book's utilities module
// (Dive into Deep Learning's train_ch3 beside train_ch5) holds both; blind
// sample WW judged SYNC002 in the CPU one false. Per-step syncs there
// wait for nothing.
func hostBatchLoop(p *Pass, loop *rewrite.Node) bool {
	if loop.Type != "for_statement" {
		return false
	}
	type key struct{ loop *rewrite.Node }
	return p.Model.Memo(key{loop}, func() any { return hostBatchLoopScan(p, loop) }).(bool)
}

// hostBatchLoopScan is hostBatchLoop, uncached.
func hostBatchLoopScan(p *Pass, loop *rewrite.Node) bool {
	// The function that holds the loop (or, at module level, the
	// outermost loop around it) moves nothing: an inner loop over labels
	// built beside a moved batch is not a CPU step.
	scope := loop.Ancestor("function_definition")
	if scope == nil {
		scope = loop
		if outer := p.Model.EnclosingLoops(loop); len(outer) > 0 {
			scope = outer[len(outer)-1]
		}
	}
	if text := scope.Text(); strings.Contains(text, ".to(") || strings.Contains(text, ".cuda(") || strings.Contains(text, "device") {
		return false
	}
	if it := loop.ChildByField("right"); it != nil && placedIterable(p, it, 0) {
		return false // batches built on a device (a TensorDataset of CUDA tensors)
	}
	targets := loopTargetNames(loop)
	fed := false
	for _, n := range p.Model.LoopBodyNodes(loop) {
		args := n.ChildByField("arguments")
		if n.Type != "call" || args == nil || !slices.ContainsFunc(args.NamedChildren(), func(a *rewrite.Node) bool { return a.Type == "identifier" && targets[a.Text()] }) {
			continue
		}
		if fn := n.ChildByField("function"); fn != nil && fn.Type == "identifier" {
			if k := p.Model.ModuleDevice(fn, n); k == rewrite.DeviceCUDA || k == rewrite.DeviceMaybeCUDA {
				return false // fed to a network this file placed on the GPU
			}
		}
		if def := p.Model.FunctionDef(n); def != nil {
			if text := def.Text(); strings.Contains(text, ".to(") || strings.Contains(text, ".cuda(") || strings.Contains(text, "device") {
				return false // a helper of this file handed the batch may move it
			}
		}
		fed = true
	}
	return fed && movesBatchesElsewhere(p, loop)
}

// placedIterable reports an iterable (through enumerate, zip or tqdm)
// whose values this file builds with a device named in their text:
// `DataLoader(TensorDataset(torch.randn(64, 16, device="cuda")))`.
func placedIterable(p *Pass, it *rewrite.Node, depth int) bool {
	if depth > 3 {
		return false
	}
	for it.Type == "call" {
		args := rewrite.PositionalArgs(it)
		if q := p.Model.CalleeName(it); len(args) == 0 || q != "enumerate" && q != "zip" && !strings.HasPrefix(q, "tqdm") {
			break
		}
		it = args[0]
	}
	for _, o := range p.Model.Origins(it) {
		if o.Expr == nil {
			continue
		}
		text := o.Expr.Text()
		if strings.Contains(text, "cuda") || strings.Contains(text, "device") {
			return true
		}
		for _, a := range rewrite.PositionalArgs(o.Expr) {
			if a.Type == "identifier" && placedIterable(p, a, depth+1) {
				return true
			}
		}
	}
	return false
}

// loopTargetNames returns the names a for loop binds per iteration.
func loopTargetNames(loop *rewrite.Node) map[string]bool {
	names := map[string]bool{}
	if left := loop.ChildByField("left"); left != nil {
		left.Walk(func(n *rewrite.Node) bool {
			if n.Type == "identifier" {
				names[n.Text()] = true
			}
			return true
		})
	}
	return names
}

// movesBatchesElsewhere reports a file with a for loop other than skip
// (and not nested with it) whose body moves one of the loop's own names
// to a device (`X = X.to(device)`, `y.cuda()`).
func movesBatchesElsewhere(p *Pass, skip *rewrite.Node) bool {
	moving := p.Memo("hot.batchMovingLoops", func() any {
		var out []*rewrite.Node
		for _, loop := range p.File.OfType("for_statement") {
			if movesOwnBatch(loop) {
				out = append(out, loop)
			}
		}
		return out
	}).([]*rewrite.Node)
	return slices.ContainsFunc(moving, func(l *rewrite.Node) bool { return l != skip && !l.Contains(skip) && !skip.Contains(l) })
}

// movesOwnBatch reports a for loop whose body calls `.to(...)` or
// `.cuda(...)` on a name the loop binds.
func movesOwnBatch(loop *rewrite.Node) bool {
	body := loop.ChildByField("body")
	if body == nil {
		return false
	}
	targets := loopTargetNames(loop)
	moves := false
	body.Walk(func(n *rewrite.Node) bool {
		if moves {
			return false
		}
		if fn := n.ChildByField("function"); n.Type == "call" && fn != nil && fn.Type == "attribute" {
			attr := fn.ChildByField("attribute").Text()
			obj := fn.ChildByField("object")
			moves = (attr == "to" || attr == "cuda") && obj != nil && obj.Type == "identifier" && targets[obj.Text()]
		}
		return !moves
	})
	return moves
}

// periodicLoop reports a loop (loops[0] of EnclosingLoops) that runs only
// every rareInterval or more steps of the loop around it: in the body of
// an `if` that takes a remainder by a known interval (`if iteration %
// args.log_rate == 0:` with a default of 1000 around an evaluation pass,
// `if (i + 1) % 100 == 0:` around a sample grid). Its per-step costs are
// paid once every N steps (blind sample S16E's DDPM and StyleGAN).
func periodicLoop(p *Pass, loops []*rewrite.Node) bool {
	if len(loops) < 2 {
		return false
	}
	return anyRemainderGuard(p.Model, loops[1], loops[0], func(cond *rewrite.Node) bool {
		for _, op := range p.File.OfTypeIn(cond, "binary_operator") {
			if o := op.ChildByField("operator"); o != nil && o.Text() == "%" {
				if n, ok := boundValue(p, op.ChildByField("right")); ok && n >= rareInterval {
					return true
				}
			}
		}
		return false
	})
}

// rareInterval is the least interval, in steps, at which periodicLoop
// takes a guarded loop to be cold: an evaluation every 10 steps is a
// large share of the training (blind sample S14's CLRP judged its
// SYNC002 true), one every 100 or 1,000 is not.
const rareInterval = 100

// onePassPerCall reports a loop of a function (loops are the loops around
// a statement, innermost first, all in that function) every call of which,
// in this file or in the other modules of the project that import it,
// sits outside the loops of its caller, a training script: a prediction or
// evaluation pass run once after training, or once per fold by a caller
// that loops over folds (blind samples S16F's MoA inference_fn, S16J's
// evaluate_standard). Its per-step costs are paid once; the per-epoch
// validation pass beside it keeps its findings. (In a prediction script
// the pass is the run's work: no training there, no silence.)
func onePassPerCall(p *Pass, loops []*rewrite.Node) bool {
	fn := enclosingFunction(loops[0])
	if fn == nil || !fn.Contains(loops[len(loops)-1]) {
		return false
	}
	for _, l := range loops {
		if p.Model.Loop(l).Trains() {
			return false // the training loop itself, or a pass inside the epoch loop
		}
	}
	return calledOnce(p, fn, 0)
}

// calledOnce reports a function of a training script every call of which,
// in this file or the modules that import it, runs outside loops (but a
// loop over folds or seeds), at module level or in a function called once
// itself (an evaluate_model() called every eval_freq steps of the
// training loop calls its calc_loss_loader() there too).
func calledOnce(p *Pass, fn *rewrite.Node, depth int) bool {
	if depth > 3 {
		return false
	}
	sites := p.Model.CallSites(fn)
	trains := len(sites) > 0 && len(p.Model.TrainingLoops()) > 0
	for _, site := range sites {
		for _, l := range p.Model.EnclosingLoops(site) {
			if !isFoldLoop(l) {
				return false
			}
		}
		if caller := enclosingFunction(site); caller != nil && caller != fn && !calledOnce(p, caller, depth+1) {
			return false
		}
	}
	if p.Model.MayHaveForeignCallSites(fn) {
		foreign := p.Model.ForeignCallSites(fn)
		if len(foreign) == 0 {
			return false // imported, but called in ways not read here
		}
		for _, fc := range foreign {
			if len(fc.Model.EnclosingLoops(fc.Call)) > 0 {
				return false
			}
			trains = trains || len(fc.Model.TrainingLoops()) > 0
		}
	}
	return trains
}

// isFoldLoop reports a loop over cross-validation folds or seeds (`for
// fold in range(NFOLDS):`, `for fold, (tr, va) in enumerate(kf.split(X)):`,
// `for seed in SEEDS:`): each pass trains a model of its own, so code run
// once per pass runs once per model.
func isFoldLoop(loop *rewrite.Node) bool {
	if loop.Type != "for_statement" {
		return false
	}
	left := loop.ChildByField("left")
	found := false
	left.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" {
			name := strings.ToLower(n.Text())
			found = found || strings.Contains(name, "fold") || strings.Contains(name, "seed")
		}
		return !found
	})
	return found
}

// hostOutputLoop reports a loop that converts a model's output to NumPy
// with no `.cpu()` on the way (`np.argmax(out.data.numpy())`,
// `net(x)[0].detach().numpy()`): `.numpy()` raises on a CUDA tensor, so
// this loop runs its model on the CPU whatever device the file names
// elsewhere (blind sample S39B's captcha test script, which loads the
// weights with `map_location=device` and never moves the network).
func hostOutputLoop(p *Pass, loop *rewrite.Node) bool {
	type key struct{ loop *rewrite.Node }
	return p.Model.Memo(key{loop}, func() any {
		for _, n := range p.Model.LoopBodyNodes(loop) {
			if n.Type == "call" && callAttr(n) == "numpy" && len(rewrite.PositionalArgs(n)) == 0 && !conditionalIn(n, loop) && hostModelOutput(p, n) {
				return true
			}
		}
		return false
	}).(bool)
}

// conditionalIn reports a node that runs under a condition inside loop:
// an if, elif or else branch, or a conditional expression (`if use_cuda:
// out.cpu().numpy() else: out.data.numpy()` runs either).
func conditionalIn(n, loop *rewrite.Node) bool {
	for a := n.Parent; a != nil && a != loop; a = a.Parent {
		if a.Is("if_statement", "conditional_expression", "boolean_operator") {
			return true
		}
	}
	return false
}

// hostModelOutput reports a `.numpy()` call whose receiver is, through
// `.data`, subscripts and `.detach()`-like calls but no move, a model's
// output: a forward call, or a name its reaching assignment binds to one.
func hostModelOutput(p *Pass, numpyCall *rewrite.Node) bool {
	fn := numpyCall.ChildByField("function")
	v := fn.ChildByField("object")
	for v != nil {
		switch v.Type {
		case "attribute":
			if v.ChildByField("attribute").Text() != "data" {
				return false
			}
			v = v.ChildByField("object")
		case "subscript":
			v = v.ChildByField("value")
		case "parenthesized_expression":
			v = v.NamedChildren()[0]
		case "call":
			switch callAttr(v) {
			case "detach", "squeeze", "unsqueeze", "float", "double", "flatten", "view", "reshape", "clone", "contiguous":
				v = v.ChildByField("function").ChildByField("object")
				continue
			}
			return modelForwardCall(p, v)
		case "identifier":
			b := p.Model.ReachingBinding(v, numpyCall)
			if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
				return false
			}
			return modelForwardCall(p, b.Value)
		default:
			return false
		}
	}
	return false
}

// modelForwardCall reports a call of a name bound to a model.
func modelForwardCall(p *Pass, call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	return fn != nil && fn.Type == "identifier" && (isModel(p, fn) || p.Model.IsModule(fn))
}

// linesPhrase names source lines in a message: "line 12" or "lines 12, 14".
func linesPhrase(lines []string) string {
	if len(lines) == 1 {
		return "line " + lines[0]
	}
	return "lines " + strings.Join(lines, ", ")
}

// debugBranch reports n in the body of an `if`, below stop, whose
// condition is a debugging switch: a name or attribute spelled with debug
// (`if debug:`, `if self.debug_level > 1:`, `if args.debug and step > 0:`;
// not verbose, which is often on by default). What runs there is what a developer
// asks for when inspecting a run, not the run's steps (blind sample
// S40B's diffusion sampler, which keeps every step's sample on the host
// only `if(debug):`).
func debugBranch(n, stop *rewrite.Node) bool {
	for c, a := n, n.Parent; a != nil && c != stop; c, a = a, a.Parent {
		if a.Type == "if_statement" && c == a.ChildByField("consequence") && debugSwitch(a.ChildByField("condition")) {
			return true
		}
	}
	return false
}

// debugSwitch reports a condition that is, or is a conjunct or an "on"
// comparison of, a name whose last part says debug.
func debugSwitch(cond *rewrite.Node) bool {
	if cond == nil {
		return false
	}
	switch cond.Type {
	case "parenthesized_expression":
		return len(cond.NamedChildren()) == 1 && debugSwitch(cond.NamedChildren()[0])
	case "boolean_operator":
		op := cond.ChildByField("operator")
		return op != nil && op.Text() == "and" && (debugSwitch(cond.ChildByField("left")) || debugSwitch(cond.ChildByField("right")))
	case "comparison_operator":
		// Only a comparison that means "on": `debug > 0`, `debug == True`,
		// `debug is True` (not `debug == False`, the other branch).
		kids := cond.NamedChildren()
		if len(kids) != 2 || !debugSwitch(kids[0]) {
			return false
		}
		op := strings.TrimSpace(cond.Text()[kids[0].End-cond.Start : kids[1].Start-cond.Start])
		v := kids[1].Text()
		return op == ">" || op == ">=" || (op == "==" || op == "is") && v == "True" || (op == "!=" || op == "is not") && (v == "0" || v == "False" || v == "None")
	case "identifier", "attribute":
		name := cond.Text()
		if cond.Type == "attribute" {
			name = cond.ChildByField("attribute").Text()
		}
		return strings.Contains(strings.ToLower(name), "debug")
	}
	return false
}

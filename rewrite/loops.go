package rewrite

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// LoopInfo says what a for/while loop does, as far as the file shows it.
type LoopInfo struct {
	Loop *Node
	// Backward: the body (or a same-file function it calls) runs .backward().
	Backward bool
	// OptimizerStep: the body runs `<torch.optim optimizer>.step()` or a
	// GradScaler's step.
	OptimizerStep bool
	// IteratesLoader: a for loop over a torch DataLoader (directly, or
	// through enumerate/tqdm/zip).
	IteratesLoader bool
	// ModelForward: the body calls an nn.Module instance (a name bound to
	// a torch.nn / transformers / torchvision model, or to a class of this
	// file that subclasses nn.Module).
	ModelForward bool
}

// Trains reports a training loop: one whose body reaches .backward() or an
// optimizer step.
func (li *LoopInfo) Trains() bool { return li.Backward || li.OptimizerStep }

// Hot reports a hot loop: training, a model forward, or a DataLoader walk.
func (li *LoopInfo) Hot() bool {
	return li.Backward || li.OptimizerStep || li.IteratesLoader || li.ModelForward
}

// IsLoop reports whether n is a for or while statement. It compares type
// ids, for the walks up the tree that ask it of every ancestor.
func IsLoop(n *Node) bool {
	if n == nil || n.tid == 0 { // a node made outside the mirror (tid 0 is the end symbol's)
		return n.Is("for_statement", "while_statement")
	}
	return n.tid == pythonSymbols.forID || n.tid == pythonSymbols.whileID
}

// IsDefOrLambda reports whether n is a function or class definition or a
// lambda: code that does not run where it is written. It compares type ids,
// for the walks that ask it of every node.
func IsDefOrLambda(n *Node) bool {
	t := n.tid
	if t == 0 { // a node made outside the mirror (tid 0 is the end symbol's)
		return n.Is("function_definition", "class_definition", "lambda")
	}
	return t == pythonSymbols.functionID || t == pythonSymbols.classID || t == pythonSymbols.lambdaID
}

// IsScopeNode reports whether n opens a new Python scope. Like IsLoop, it
// compares type ids.
func IsScopeNode(n *Node) bool {
	if n == nil || n.tid == 0 {
		return n.Is("function_definition", "class_definition", "lambda", "module")
	}
	return IsDefOrLambda(n) || n.tid == pythonSymbols.moduleID
}

// EnclosingLoops returns the for/while loops around n, innermost first,
// stopping at the enclosing function or class.
func (m *Model) EnclosingLoops(n *Node) []*Node {
	if !m.mayBeInLoop(n) {
		return nil // most nodes: answered without walking up the tree
	}
	var loops []*Node
	for c, p := n, n.Parent; p != nil && !IsScopeNode(p); c, p = p, p.Parent {
		if IsLoop(p) && !isLoopHeader(p, c) {
			loops = append(loops, p)
		}
	}
	return loops
}

// InLoop reports whether n runs in a loop of its own function or class:
// whether EnclosingLoops has any, without building the list.
func (m *Model) InLoop(n *Node) bool {
	if !m.mayBeInLoop(n) {
		return false
	}
	for c, p := n, n.Parent; p != nil && !IsScopeNode(p); c, p = p, p.Parent {
		if IsLoop(p) && !isLoopHeader(p, c) {
			return true
		}
	}
	return false
}

// mayBeInLoop reports whether n may lie inside a loop: false for a node
// of the file's slab outside every loop's subtree, which a bit per slab
// node tells without walking up the tree.
func (m *Model) mayBeInLoop(n *Node) bool {
	if !m.File.inSlab(n) {
		return true
	}
	i := int(n.idx)
	if m.inLoops == nil {
		m.inLoops = loopNodeBits(m.File)
	}
	return m.inLoops[i/64]&(1<<(i%64)) != 0
}

// loopNodeBits returns a bit per slab node of f, set for the nodes of the
// loops' subtrees.
func loopNodeBits(f *File) []uint64 {
	bits := make([]uint64, len(f.nodes)/64+1)
	for _, typ := range []string{"for_statement", "while_statement"} {
		for _, l := range f.OfType(typ) {
			for i := l.idx; i < l.idx+f.sizes[l.idx]; i++ {
				bits[i/64] |= 1 << (i % 64)
			}
		}
	}
	return bits
}

// isLoopHeader reports whether child, a child of loop, is a for loop's
// target or iterable, which run once rather than per iteration.
func isLoopHeader(loop, child *Node) bool {
	if child.Field != "left" && child.Field != "right" || loop.Type != "for_statement" {
		return false
	}
	return loop.ChildByField(child.Field) == child
}

// HotLoop returns the innermost hot loop around n, or nil.
func (m *Model) HotLoop(n *Node) *Node {
	for _, l := range m.EnclosingLoops(n) {
		if m.Loop(l).Hot() {
			return l
		}
	}
	return nil
}

// Loop analyses a loop (cached).
func (m *Model) Loop(loop *Node) *LoopInfo {
	if li, ok := m.loopInfo[loop]; ok {
		return li
	}
	li := &LoopInfo{Loop: loop}
	m.loopInfo[loop] = li
	if RunsOnce(loop) || loop.Type == "for_statement" && m.singleBatchLoader(loop.ChildByField("right")) {
		return li // one pass, not a loop: nothing per step
	}
	if loop.Type == "for_statement" {
		li.IteratesLoader = m.IsDataLoader(loop.ChildByField("right"))
	}
	var visited []*Node // the functions followed so far (a few at most)
	for _, n := range m.LoopBodyNodes(loop) {
		m.scanNode(n, li, &visited, 0)
	}
	return li
}

// wholeBatchSize matches a DataLoader batch of the whole dataset.
var wholeBatchSize = regexp.MustCompile(`batch_size\s*=\s*len\(`)

// singleBatchLoader reports a loop's iterable (through enumerate, tqdm)
// whose every origin is a DataLoader whose batch is its whole dataset
// (`DataLoader(dev_dataset, batch_size=len(dev_dataset))`): the loop runs
// its body once per pass (blind samples S29I and S30I judged per-step
// advice on such evaluation loops false).
func (m *Model) singleBatchLoader(expr *Node) bool {
	if m.wholeBatches == 0 {
		m.wholeBatches = 1
		for _, src := range m.ProjectSourcesSpelling("batch_size") {
			if bytes.Contains(src, []byte("batch_size")) && wholeBatchSize.Match(src) {
				m.wholeBatches = 2
				break
			}
		}
	}
	if m.wholeBatches != 2 {
		return false
	}
	for expr != nil && expr.Type == "call" {
		q := m.CalleeName(expr)
		if q != "enumerate" && !strings.HasPrefix(q, "tqdm") {
			break
		}
		args := PositionalArgs(expr)
		if len(args) == 0 {
			return false
		}
		expr = args[0]
	}
	if expr == nil {
		return false
	}
	origins := m.OriginsAcross(expr)
	for _, o := range origins {
		om := m
		if o.Model != nil {
			om = o.Model
		}
		if o.Expr == nil || o.Expr.Type != "call" || !wholeDatasetBatch(om, o.Expr) {
			return false
		}
	}
	return len(origins) > 0
}

// wholeDatasetBatch reports `DataLoader(ds, batch_size=len(ds))`.
func wholeDatasetBatch(m *Model, call *Node) bool {
	if q := m.CalleeName(call); q != "torch.utils.data.DataLoader" && q != "torch.utils.data.dataloader.DataLoader" {
		return false
	}
	ds, bs := Arg(call, 0, "dataset"), Arg(call, 1, "batch_size")
	if ds == nil || bs == nil || bs.Type != "call" || bs.ChildByField("function").Text() != "len" {
		return false
	}
	args := PositionalArgs(bs)
	return len(args) == 1 && args[0].Text() == ds.Text()
}

// RunsOnce reports a loop, in no other loop of its function, whose body
// ends in an unconditional break and holds no continue: it runs its body
// at most once (`for x, _ in
// init_loader: model.initialize(x); break`, a data-dependent
// initialisation's one batch: blind sample S18D's Glow).
func RunsOnce(loop *Node) bool {
	body := loop.ChildByField("body")
	if body == nil || len(body.NamedChildren()) == 0 || loop.ChildByField("alternative") != nil {
		return false
	}
	stmts := body.NamedChildren()
	if stmts[len(stmts)-1].Type != "break_statement" {
		return false
	}
	for a := loop.Parent; a != nil && !IsDefOrLambda(a); a = a.Parent {
		if IsLoop(a) {
			return false // once per pass of the outer loop: one batch per epoch is still a step per epoch
		}
	}
	skips := false
	body.Walk(func(n *Node) bool {
		if n.Type == "continue_statement" {
			skips = true
		}
		return !skips && !IsDefOrLambda(n)
	})
	return !skips
}

// LoopBodyNodes returns the named nodes of a loop's body (LoopBody) in
// source order, without the functions, classes and lambdas defined there
// and their insides: what runs on every iteration. It is cached, for the
// rules walk the same loop bodies again and again; the slice is shared:
// callers must not modify it.
func (m *Model) LoopBodyNodes(loop *Node) []*Node {
	if b, ok := m.loopBodies[loop]; ok {
		return b
	}
	// The bodies share one array; a body is a window of it that an append
	// by a caller cannot overwrite.
	start := len(m.loopNodes)
	for _, c := range loop.Children {
		if c.Field != "body" {
			continue
		}
		c.Walk(func(n *Node) bool {
			if IsDefOrLambda(n) {
				return false
			}
			if n.Named {
				m.loopNodes = append(m.loopNodes, n)
			}
			return true
		})
	}
	out := m.loopNodes[start:len(m.loopNodes):len(m.loopNodes)]
	m.loopBodies[loop] = out
	return out
}

// scanBody looks for training and model calls in a function's body.
func (m *Model) scanBody(body *Node, li *LoopInfo, visited *[]*Node, depth int) {
	body.Walk(func(n *Node) bool {
		if IsDefOrLambda(n) && n != body {
			return false
		}
		m.scanNode(n, li, visited, depth)
		return true
	})
}

// scanNode records what n tells about the loop: training and model calls,
// following calls to functions defined in this file one or two levels deep.
func (m *Model) scanNode(n *Node, li *LoopInfo, visited *[]*Node, depth int) {
	if n.Type == "for_statement" && m.IsDataLoader(n.ChildByField("right")) {
		li.IteratesLoader = true
	}
	if n.Type != "call" {
		return
	}
	fn := n.ChildByField("function")
	if fn != nil && fn.Type == "attribute" {
		attr := fn.ChildByField("attribute").Text()
		obj := fn.ChildByField("object")
		switch attr {
		case "backward":
			li.Backward = true
		case "step":
			if m.IsOptimizer(obj) {
				li.OptimizerStep = true
			}
		}
	}
	if m.IsModule(fn) && !m.namesFunction(fn) {
		li.ModelForward = true
	}
	if fn != nil && (fn.Type == "identifier" || fn.Type == "attribute") {
		// train_one_epoch(...) imported from a sibling module that trains
		// (or engine.train_fn(...) after `import engine`).
		if d := m.importedDef(fn); d != nil && d.Trains && !d.Class {
			li.Backward = true
		}
	}
	if m.callsStepMethod(fn) {
		li.Backward = true
	}
	if def := m.CalledDef(n); def != nil && depth < 2 && !slices.Contains(*visited, def) {
		*visited = append(*visited, def)
		if b := def.ChildByField("body"); b != nil {
			m.scanBody(b, li, visited, depth+1)
		}
	}
}

// namesFunction reports a callee that names a function, of this file or
// imported from the project: calling it runs the function, whose result
// may be a model (`make_augmentations() -> nn.Module`), but the call is
// not a forward pass (blind sample S39AE's fold loop, read as a training
// step through such a factory).
func (m *Model) namesFunction(fn *Node) bool {
	if fn.Type == "identifier" {
		if b := m.Binding(fn); b != nil && b.Kind == DefBinding {
			return true
		}
	}
	d := m.importedDef(fn)
	return d != nil && !d.Class
}

// Classifier answers what a value is, with the libraries' knowledge
// (patterns/facts.go): the loop analysis asks it whether a callee is a
// model, a receiver of .step() an optimizer, an iterable a DataLoader.
type Classifier interface {
	IsModule(expr *Node) bool
	IsOptimizer(expr *Node) bool
	IsDataLoader(expr *Node) bool
}

// SetClassifier installs the classifier the model's IsModule, IsOptimizer
// and IsDataLoader answer through (nil: the built-in, file-local answers).
// Set it before asking the model anything.
func (m *Model) SetClassifier(c Classifier) { m.classifier = c }

// IsOptimizer reports whether expr names a torch optimizer or GradScaler.
func (m *Model) IsOptimizer(expr *Node) bool {
	if m.classifier != nil {
		return m.classifier.IsOptimizer(expr)
	}
	return m.BuiltinIsOptimizer(expr)
}

// BuiltinIsOptimizer is IsOptimizer without a classifier: a torch
// optimizer or GradScaler constructed in this file.
func (m *Model) BuiltinIsOptimizer(expr *Node) bool {
	q := m.constructor(expr)
	return strings.HasPrefix(q, "torch.optim.") || strings.HasSuffix(q, ".GradScaler") ||
		strings.HasPrefix(q, "bitsandbytes.optim.") || q == "transformers.AdamW"
}

// IsDataLoader reports whether expr is a torch DataLoader, possibly wrapped
// in enumerate(), tqdm() or zip().
func (m *Model) IsDataLoader(expr *Node) bool {
	if m.classifier != nil {
		return m.classifier.IsDataLoader(expr)
	}
	return m.BuiltinIsDataLoader(expr)
}

// IterationWrapper reports the qualified name of a call that iterates
// what its arguments yield, item by item: enumerate, zip, a tqdm
// progress bar, itertools.cycle (a loader cycled for a fixed number of
// iterations: blind sample S32G's onsets-and-frames) and islice.
func IterationWrapper(q string) bool {
	return q == "enumerate" || q == "zip" || strings.HasPrefix(q, "tqdm") || q == "itertools.cycle" || q == "itertools.islice"
}

// WrapsIteration reports a call that yields what its first argument
// yields: an IterationWrapper by qualified name (q is m.CalleeName(call)),
// or a `.log_every(loader, print_freq, header)` call, the MetricLogger
// of torchvision's reference scripts that DETR, TransVG and many
// detection repositories copy (blind sample S32S's Table-Detection).
func WrapsIteration(q string, call *Node) bool {
	if IterationWrapper(q) {
		return true
	}
	fn := call.ChildByField("function")
	return fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "log_every"
}

// BuiltinIsDataLoader is IsDataLoader without a classifier.
func (m *Model) BuiltinIsDataLoader(expr *Node) bool {
	if expr == nil {
		return false
	}
	if expr.Type == "call" {
		switch q := m.CalleeName(expr); {
		case WrapsIteration(q, expr):
			for _, a := range PositionalArgs(expr) {
				if m.BuiltinIsDataLoader(a) {
					return true
				}
			}
			return false
		}
	}
	return m.constructor(expr) == "torch.utils.data.DataLoader" || m.constructor(expr) == "torch.utils.data.dataloader.DataLoader"
}

// IsModule reports whether expr is an nn.Module instance: a name bound to
// a torch.nn / torchvision / transformers / timm constructor, a
// `.from_pretrained(...)` call, or a class of this file that subclasses
// nn.Module. `self.<attr>` is not followed. With a classifier, it answers.
func (m *Model) IsModule(expr *Node) bool {
	if m.classifier != nil {
		return m.classifier.IsModule(expr)
	}
	return m.BuiltinIsModule(expr)
}

// BuiltinIsModule is IsModule without a classifier.
func (m *Model) BuiltinIsModule(expr *Node) bool {
	if expr == nil {
		return false
	}
	v := expr
	if expr.Type == "identifier" {
		if v = m.ValueOf(expr); v == nil {
			return false
		}
	}
	// model = Net().to(device) / model.cuda()
	for v.Type == "call" {
		fn := v.ChildByField("function")
		if fn != nil && fn.Type == "attribute" {
			switch fn.ChildByField("attribute").Text() {
			case "to", "cuda", "train", "eval", "half", "bfloat16", "float":
				v = fn.ChildByField("object")
				continue
			case "from_pretrained":
				q := m.QualifiedName(fn.ChildByField("object"))
				return strings.HasPrefix(q, "transformers.")
			}
		}
		break
	}
	if v.Type != "call" {
		return false
	}
	q := m.CalleeName(v)
	for _, p := range []string{"torch.nn.", "torchvision.models.", "transformers.", "timm."} {
		if strings.HasPrefix(q, p) {
			return !strings.HasPrefix(q, "torch.nn.functional.")
		}
	}
	if q == "timm.create_model" {
		return true
	}
	return m.IsModuleClass(v.ChildByField("function"))
}

// IsModuleClass reports whether expr names a class defined in this file
// that subclasses torch.nn.Module (directly or through another such class).
func (m *Model) IsModuleClass(expr *Node) bool {
	return m.isModuleClass(expr, 0)
}

func (m *Model) isModuleClass(expr *Node, depth int) bool {
	if expr == nil || expr.Type != "identifier" || depth > 5 {
		return false
	}
	b := m.Binding(expr)
	if b == nil || b.Kind != ClassBinding {
		return false
	}
	sc := b.Stmt.ChildByField("superclasses")
	if sc == nil {
		return false
	}
	for _, base := range sc.NamedChildren() {
		q := m.QualifiedName(base)
		if q == "torch.nn.Module" || strings.HasPrefix(q, "transformers.") || m.isModuleClass(base, depth+1) {
			return true
		}
	}
	return false
}

// constructor returns the qualified callee that built expr: for a name
// assigned once from a call, that call's callee; for a call, its callee.
func (m *Model) constructor(expr *Node) string {
	if expr == nil {
		return ""
	}
	if expr.Type == "identifier" {
		expr = m.ValueOf(expr)
		if expr == nil {
			return ""
		}
	}
	return m.CalleeName(expr)
}

// TrainingLoops returns every loop in the file that trains, in source
// order. The slice is shared: callers must not modify it.
func (m *Model) TrainingLoops() []*Node {
	if m.trainingLoops == nil {
		m.trainingLoops = []*Node{}
		for _, n := range m.File.OfTypes("for_statement", "while_statement") {
			if m.Loop(n).Trains() {
				m.trainingLoops = append(m.trainingLoops, n)
			}
		}
	}
	return m.trainingLoops
}

// IsTrainingScript reports whether the module has a training loop.
func (m *Model) IsTrainingScript() bool { return len(m.TrainingLoops()) > 0 }

// callsStepMethod reports a callee `obj.method` where obj is an instance
// of a class of another project module and method one of its
// StepMethods (`model.train_step(real_A, real_B)` in train.py, the
// backward in model.py).
func (m *Model) callsStepMethod(fn *Node) bool {
	if m.project == nil || fn == nil || fn.Type != "attribute" {
		return false
	}
	obj := fn.ChildByField("object")
	if obj == nil || obj.Type != "identifier" {
		return false
	}
	name := fn.ChildByField("attribute").Text()
	for _, o := range m.Origins(obj) {
		if o.Def != nil && o.Def.Class && o.Call != nil && slices.Contains(o.Def.StepMethods, name) {
			return true
		}
	}
	return false
}

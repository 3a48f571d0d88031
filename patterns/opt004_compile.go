package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CompileModel is OPT004.
var CompileModel = &Rule{
	Code:      "OPT004",
	Name:      "torch-compile",
	Title:     "Consider torch.compile for the trained model (measure first)",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	// No Names gate: the training may happen in a sibling module's function.
	Check: checkCompileModel,
}

func init() { Register(CompileModel) }

func checkCompileModel(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(2, 0) || p.File.Spells("compile") || doubleBackward(p) {
		return
	}
	if p.Model.ImportedModuleSpells("torch.compile(") {
		// A project module this file imports compiles (blind sample
		// S39C's chess network, whose constructor compiles each of its
		// residual blocks): the model may already be compiled.
		return
	}
	if variableShapeBatches(p) {
		// Batches padded to their own longest (OPT003's reading): every
		// new shape recompiles until dynamic shapes take over, and a
		// decoder stepping a Python loop over the sequence breaks the
		// graph each step (blind sample S38S: CAN and MSFAB's
		// handwritten-formula decoders).
		return
	}
	if opacusPrivate(p) {
		// Opacus's GradSampleModule computes per-sample gradients with
		// hooks on every layer, which torch.compile does not support
		// (blind sample S36N: three DP-SGD trainers).
		return
	}
	if circuitSimulation(p) {
		return // the step is a quantum circuit simulation (TorchConnector breaks the graph)
	}
	if apexMixedPrecision(p) {
		// apex.amp patches torch's functions (O1) or casts the model (O2)
		// in place: compile is no drop-in until the script moves to
		// torch.autocast (blind samples S17A's SwAV, S18H's PANDA).
		return
	}
	if spikingjellyCupy(p) && p.Model.ProjectSpells("backend='cupy'", `backend="cupy"`) {
		// spikingjelly's neurons built on their cupy backend (not chosen
		// by a flag): autograd Functions launching CuPy kernels, which
		// dynamo cannot trace, so a graph break at every neuron layer,
		// and reset_net changes their state every step (blind sample
		// S22C's Spikformer; its torch-backend SNN keeps the hint).
		return
	}
	if p.Model.ImportedModuleSpells("torchvision.models.detection") {
		// A torchvision detection model (Faster R-CNN, RetinaNet, SSD),
		// here or in a module this file imports: its forward takes a list
		// of images of their own sizes and runs data-dependent proposals,
		// sampling and NMS, where dynamo breaks the graph and recompiles
		// (blind sample S30K's Global-Wheat-Detection).
		return
	}
	if trainsOneSampleAtATime(p) {
		// One sample per step, of its own shape as a rule (whole images
		// of their own size): compile re-traces each new shape, then
		// goes dynamic (blind sample S27A's CSRNet).
		return
	}
	if convolutionalTraining(p) && smallConvolutionalBatch(p) {
		// A CNN over MNIST- or CIFAR-size images at batch 32 or less
		// (smallConvolutionalBatch): a step of well under a millisecond
		// of kernels, where compiling costs seconds and small networks
		// ran 0.47-0.89× compiled (blind sample S30Q's MNIST CNN).
		return
	}
	if !p.Model.UsesCUDA() {
		// A script that names no device may hand its model to a trainer
		// of another module that does.
		reportHandedModels(p, nil)
		return
	}
	var seen []*rewrite.Node // the models reported: one finding each
	for _, call := range torchCalls(p) {
		fn := call.ChildByField("function")
		if fn.Type != "identifier" {
			continue
		}
		// The model called in a training loop, or handed to a helper that
		// runs its forward there (`loss = calc_loss_batch(x, y, model)`).
		model := fn
		if !p.Model.IsModule(fn) {
			model = nil
			if runsForward(p, call, 0) {
				model = forwardArgument(p, call)
			}
			if model == nil {
				continue
			}
		}
		loops := p.Model.EnclosingLoops(call)
		if len(loops) == 0 || !p.Model.Loop(loops[0]).Trains() {
			continue
		}
		if underNoGrad(p, call, loops[0]) {
			continue // a target network's forward under no_grad: not trained by this loop
		}
		if model == fn && shortRun(p, loops) {
			continue // (a helper's forward has loops of its own: not read here)
		}
		// Where the model is built: assigned here, or passed in (the
		// argument of a call site of this function, or a helper's return).
		value, target := builtModel(p, model, trainedBy(p, loops[0]))
		if value == nil || slices.Contains(seen, value) || recurrentNetwork(p, value) || graphNetwork(p, value) || hostBoundNetwork(p, unchainModuleMethods(value)) || builderCompiles(p, value) || bareContainer(p, value) {
			continue
		}
		if built := unchainModuleMethods(value); built.Type == "call" && missingProjectClass(p, built) {
			// A network of a class gpuopt cannot read (a module missing
			// from the repository), known as a model only by its use:
			// nothing says what compile could fuse in it (blind sample
			// S36D judged the hint false on DBC's Network).
			continue
		}
		if target != "" && frozenModuleIn(p, target, rewrite.Statement(value).Parent) && !unfrozenPart(p, target) {
			// `for param in swa_model.parameters(): param.detach_()` in
			// the block that builds it: an averaged (SWA, EMA) copy no
			// gradient trains, run for validation (blind sample S29D's
			// BraTS U-Net). A factory's `if ema:` freeze does not
			// freeze the model it builds otherwise (S29D's UA-MT).
			continue
		}
		if attributeSetPerPass(p, target) {
			// `model.module.drop_path_prob = args.drop_path_prob * epoch /
			// args.epochs` every epoch (blind sample S21J's P-DARTS): a
			// module attribute the forward reads is a guard of the
			// compiled graph, so each new value recompiles, and after
			// eight the frame runs uncompiled.
			continue
		}
		if g := narrowNetwork(p, []*rewrite.Node{rewrite.Statement(call)}); g.width > 0 && !g.attention || model != fn && toyModel(p, model) {
			// Launch-bound: compiled MLPs of 784-500-10 and 7-32-16-6
			// and LeNet ran 0.47-0.89× on an H100 (narrowTraining). Not
			// a network that attends: a GPT of d 256 ran 1.39-1.43×
			// compiled (widthWalk.attention). Nor a toy network a helper
			// the loop calls runs (blind sample S17C's 100-unit MLP GAN).
			continue
		}
		seen = append(seen, value)
		fix, msg := compileFix(p, value, target), compileMsg
		if frozenInStep(p, value, target) {
			msg = compileFrozenMsg
		}
		if savesOrLoadsState(p, target) {
			// torch.compile's module prefixes every key with _orig_mod.: a
			// checkpoint saved before no longer loads, one saved after
			// does not load into the plain model.
			fix = nil
			msg += stateDictNote
		} else if picklesModule(p, target) {
			fix = nil
			msg += pickleNote
		}
		fix = dataParallelCompile(p, fix, &msg)
		p.Report(value, msg, fix)
	}
	reportHandedModels(p, seen)
}

// shortRunSteps is the most training steps a model may run for the
// compiler's seconds of tracing to outweigh what it saves: at a few
// milliseconds a step, 2,000 steps are a run of seconds.
const shortRunSteps = 2000

// shortRun reports a training step whose loops are all range loops
// (through tqdm or enumerate) of known trip counts, shortRunSteps or
// fewer in all: a fit of an image in 250 iterations (blind sample S31H's
// Fourier-feature demo), where compiling takes longer than the run.
func shortRun(p *Pass, loops []*rewrite.Node) bool {
	top := &widthFrame{m: p.Model, walk: &widthWalk{}}
	steps := 1
	for _, l := range loops {
		it := loopIterable(p.Model, l)
		if l.Type != "for_statement" || it == nil || it.Type != "call" || p.Model.CalleeName(it) != "range" {
			return false
		}
		args := rewrite.PositionalArgs(it)
		if len(args) == 0 || len(args) > 2 {
			return false
		}
		n, ok := intBound(top, args[len(args)-1], 0)
		if !ok || n <= 0 {
			return false
		}
		steps *= n
		if steps > shortRunSteps {
			return false
		}
	}
	return true
}

// forwardArgument returns the model argument of a call of a helper that
// runs a forward pass: the positional argument, a module, whose parameter
// the helper calls (or hands on to a call that runs one). A helper handed
// two networks, a frozen encoder and the probe it trains (`train(args,
// loader, simclr_model, model, ...)` that calls only `model(x)`: blind
// sample XX), trains the one it calls. Nil when no such argument is found.
func forwardArgument(p *Pass, call *rewrite.Node) *rewrite.Node {
	def := p.Model.CalledDef(call)
	if def == nil {
		return nil
	}
	var params []string
	for _, prm := range def.ChildByField("parameters").NamedChildren() {
		if n := rewrite.ParamName(prm); n != nil {
			params = append(params, n.Text())
		}
	}
	if len(params) > 0 && (params[0] == "self" || params[0] == "cls") && def.Ancestor("class_definition") != nil {
		params = params[1:]
	}
	calledInside := func(name string, trained bool) bool {
		for _, c := range p.File.OfTypeIn(def, "call") {
			if fn := c.ChildByField("function"); fn.Type == "identifier" && fn.Text() == name {
				if trained && underNoGrad(p, c, def) {
					continue
				}
				return true
			}
			if slices.ContainsFunc(rewrite.PositionalArgs(c), func(a *rewrite.Node) bool { return a.Type == "identifier" && a.Text() == name }) && runsForward(p, c, 1) {
				return true
			}
		}
		return false
	}
	// The network called with autograd on first: a frozen backbone whose
	// forward runs under no_grad is not trained here (CMC's linear probe:
	// blind sample S16B); then, in a helper that runs a backward pass
	// (through a method: `model.log_prob(x)`), any network called.
	for _, trained := range []bool{true, false} {
		if !trained && !callsMethod(def, "backward") {
			break
		}
		for i, a := range rewrite.PositionalArgs(call) {
			if i < len(params) && a.Type == "identifier" && p.Model.IsModule(a) && calledInside(params[i], trained) {
				return a
			}
		}
	}
	return nil
}

// compileFix is the code action `target = torch.compile(target)` after the
// statement that builds the model (nil when torch.compile has no spelling here).
func compileFix(p *Pass, value *rewrite.Node, target string) *rewrite.Fix {
	e, ok := rebindAfterEdit(p, rewrite.Statement(value), "torch.compile", func(compile string) string {
		return target + " = " + compile + "(" + target + ")"
	})
	if !ok {
		return nil
	}
	return Fix(rewrite.Hint, "Compile the model with torch.compile", e)
}

// passesItself reports a call that takes name as an argument (by
// position or keyword): what it returns is the model handed in.
func passesItself(call *rewrite.Node, name string) bool {
	for _, a := range callArguments(call) {
		if a.Type == "identifier" && a.Text() == name {
			return true
		}
	}
	return false
}

// savesOrLoadsState reports a `name.state_dict()` or
// `name.load_state_dict(...)` call on the model's name in this file.
func savesOrLoadsState(p *Pass, name string) bool {
	for _, m := range []string{"state_dict", "load_state_dict"} {
		for _, call := range p.File.MethodCalls(m) {
			if r := rewrite.RootIdent(call.ChildByField("function").ChildByField("object")); r != nil && r.Text() == name {
				return true
			}
		}
	}
	// Handed to a checkpoint helper of another module
	// (`save_model(model, optimizer, opt, epoch, path)` in util.py).
	for _, call := range p.File.OfType("call") {
		d := p.Model.ImportedDef(call.ChildByField("function"))
		if d == nil || !d.SavesState {
			continue
		}
		for _, a := range call.ChildByField("arguments").NamedChildren() {
			if a.Type == "keyword_argument" {
				a = a.ChildByField("value")
			}
			if a != nil && a.Type == "identifier" && a.Text() == name {
				return true
			}
		}
	}
	return false
}

// attributeSetPerPass reports an assignment, inside a loop, to an
// attribute of the model bound to name or of its wrapped module
// (`model.drop_prob = ...`, `model.module.p = ...`): a schedule that
// changes what the forward reads on every pass.
func attributeSetPerPass(p *Pass, name string) bool {
	if name == "" {
		return false
	}
	for _, a := range p.File.OfType("assignment") {
		left := a.ChildByField("left")
		if left == nil || left.Type != "attribute" {
			continue
		}
		obj := left.ChildByField("object")
		if obj.Type == "attribute" && obj.ChildByField("attribute").Text() == "module" {
			obj = obj.ChildByField("object")
		}
		if obj.Type == "identifier" && obj.Text() == name && len(p.Model.EnclosingLoops(a)) > 0 {
			return true
		}
	}
	return false
}

// picklesModule reports `torch.save(name, ...)`: the file pickles the
// whole module object (LSTNet: blind sample OO).
func picklesModule(p *Pass, name string) bool {
	for _, call := range p.Model.CallsTo("torch.save") {
		if a := rewrite.Arg(call, 0, "obj"); a != nil && a.Type == "identifier" && a.Text() == name {
			return true
		}
	}
	return false
}

// pickleNote is what OPT004 says where the file pickles the whole model.
const pickleNote = "; this file pickles the whole model (torch.save(model)): a compiled module is an OptimizedModule wrapper, so pickle the original (model._orig_mod) and compile after loading"

// stateDictNote is what OPT004 says where the file saves or loads the
// model's weights by key.
const stateDictNote = "; this file saves or loads its state_dict, whose keys a compiled module prefixes with `_orig_mod.`: compile after loading the weights and save the original module's state_dict (model._orig_mod)"

const compileMsg = "this model is trained without torch.compile: it can fuse kernels, but measure it (a small MLP ran 0.84× on an H100, after 6.4 s of compilation)"

// compileFrozenMsg is compileMsg for a network the step runs but no
// optimizer steps (a frozen encoder beside the trained decoder: blind
// sample S14C judged "is trained" untrue there).
const compileFrozenMsg = "this model runs in every training step without torch.compile (frozen: no optimizer here steps its parameters): it can fuse kernels, but measure it (a small MLP ran 0.84× on an H100, after 6.4 s of compilation)"

// frozenInStep reports a model name whose parameters reach none of the
// file's optimizers, where every optimizer's parameters are named (the
// others are: an encoder run beside the decoder it feeds).
func frozenInStep(p *Pass, value *rewrite.Node, target string) bool {
	names, known := optimizedModels(p)
	if !known || len(names) == 0 || target == "" || names[target] {
		return false
	}
	if left := assignedName(value); left != nil && handedToOptimized(p, left, names) {
		return false
	}
	// Not a network an optimized one wraps or is built from
	// (`model = nn.DataParallel(net)`); reading its attributes
	// (`Decoder(vocab, encoder.dim)`) builds nothing from it.
	for _, id := range p.File.OfType("identifier") {
		if !names[id.Text()] || id.Parent == nil || id.Parent.Type != "assignment" || id.Parent.ChildByField("left") != id {
			continue
		}
		wraps := false
		if v := id.Parent.ChildByField("right"); v != nil {
			v.Walk(func(n *rewrite.Node) bool {
				wraps = wraps || n.Type == "identifier" && n.Text() == target && !(n.Parent != nil && n.Parent.Type == "attribute" && n.Parent.ChildByField("object") == n)
				return !wraps
			})
		}
		if wraps {
			return false
		}
	}
	return true
}

// reportHandedModels reports the models built in this file that a
// function or class of another project module trains: handed to it here
// (`run_training(model, optimizer, ...)` imported from the training
// module), or returned by a function of this file whose callers in other
// modules hand them on (`network, crit, opt = create_unet()` then
// `training(network, ...)` in run.py).
func reportHandedModels(p *Pass, seen []*rewrite.Node) {
	report := func(value *rewrite.Node, target, assumption string) {
		if slices.Contains(seen, value) || recurrentNetwork(p, value) || graphNetwork(p, value) || hostBoundNetwork(p, unchainModuleMethods(value)) || bareContainer(p, value) {
			return
		}
		seen = append(seen, value)
		fix, msg := compileFix(p, value, target), compileMsg
		if frozenInStep(p, value, target) {
			msg = compileFrozenMsg
		}
		if savesOrLoadsState(p, target) {
			fix = nil
			msg += stateDictNote
		} else if picklesModule(p, target) {
			fix = nil
			msg += pickleNote
		}
		fix = dataParallelCompile(p, fix, &msg)
		p.Report(value, msg+" ("+assumption+")", fix)
	}
	cuda := p.Model.UsesCUDA()
	for _, call := range p.File.OfType("call") {
		d := trainingDef(p.Model, call)
		if d == nil || !cuda && !d.UsesCUDA {
			continue
		}
		if d.Class && onlyUntrainingMethods(p, call, d) {
			// `trainer = Trainer(model, ema, optimizer, device)` then only
			// `trainer.test(...)`: an evaluation that needs the trainer's
			// constructor, not its training (blind sample S37P's
			// mean-teacher check()).
			continue
		}
		if handsRecurrentNetwork(p, call) {
			// The trainer's step runs a recurrent network among the ones
			// handed to it: cuDNN's recurrent kernels take its time, which
			// compiling the MLP heads beside them leaves (blind sample
			// S37J's Dancing2Music: seven findings on its small heads
			// judged false).
			continue
		}
		for _, a := range callArguments(call) {
			if a.Type != "identifier" || !p.Model.IsModule(a) {
				continue
			}
			if stepwiseModule(p, d, call, a) {
				continue
			}
			if value, target := builtModel(p, a, noTrainingStart); value != nil {
				report(value, target, "assumes "+d.Name+"() of "+baseName(d.Path)+" trains it")
			}
		}
	}
	// Built here, returned, and trained by what another module hands it to.
	for _, def := range p.File.OfType("function_definition") {
		if !p.Model.MayHaveForeignCallSites(def) {
			continue // no other module imports it: its returns need no reading
		}
		rets := rewrite.ReturnValues(def)
		if !returnsModel(p, rets) {
			continue // no need to look for callers elsewhere
		}
		for _, fc := range p.Model.ForeignCallSites(def) {
			asg := fc.Call.Parent
			if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != fc.Call {
				continue
			}
			left := asg.ChildByField("left")
			targets := []*rewrite.Node{left}
			if left.Is("pattern_list", "tuple_pattern") {
				targets = left.NamedChildren()
			}
			for idx, t := range targets {
				if t.Type != "identifier" || !handedToTrainer(fc.Model, t, cuda) || callsInTrainingLoop(fc.Model, t.Text()) {
					// (A caller that runs the model in its own training
					// loop reports it there: one finding per model.)
					continue
				}
				for _, r := range rets {
					item := r
					if len(targets) > 1 {
						if !r.Is("expression_list", "tuple") || idx >= len(r.NamedChildren()) {
							continue
						}
						item = r.NamedChildren()[idx]
					}
					if item.Type != "identifier" || !p.Model.IsModule(item) {
						continue
					}
					if value, target := builtModel(p, item, noTrainingStart); value != nil && !rebindsParam(p, value, def, 0) {
						report(value, target, "assumes "+baseName(fc.Model.File.Src.Path)+" trains it: it hands `"+t.Text()+"` to a function that trains")
					}
				}
			}
		}
	}
}

// stepwiseModule reports a model handed (as arg, at call) to the project
// function d that calls it only inside loops of its body that run no
// backward: a decoder run once per target token or tree node, inside
// the training step (the GTS tree decoders' Prediction, GenerateNode and
// Merge modules, called per decoding step with Python lists of tree
// nodes: blind sample S32I's Graph2Tree and MWP_Seq2Tree), with a Python
// list among its arguments. Their shapes follow the Python stacks, so a
// compiled module recompiles and the step stays launch-bound. A neural
// cellular automaton run for a number of steps on one tensor before the
// backward keeps its shapes, and the finding (S31J).
func stepwiseModule(p *Pass, d *rewrite.ProjectDef, call, arg *rewrite.Node) bool {
	if d.Class {
		return false
	}
	m, def := p.Model.DefinitionOf(d)
	if m == nil || def == nil || def.Type != "function_definition" {
		return false
	}
	var param *rewrite.Node
	for _, prm := range def.ChildByField("parameters").NamedChildren() {
		if prm.Type == "identifier" && rewrite.ArgumentFor(def, call, prm) == arg {
			param = prm
		}
	}
	if param == nil {
		return false
	}
	calls := 0
	stepwise, lists := true, false
	def.Walk(func(n *rewrite.Node) bool {
		if !stepwise {
			return false
		}
		if n.Type != "call" {
			return true
		}
		fn := n.ChildByField("function")
		if fn == nil || fn.Type != "identifier" || fn.Text() != param.Text() {
			return true
		}
		calls++
		loops := m.EnclosingLoops(n)
		if len(loops) == 0 || strings.Contains(loops[0].Text(), ".backward(") {
			stepwise = false
		}
		if slices.ContainsFunc(callArguments(n), func(a *rewrite.Node) bool { return pythonList(m, a) }) {
			lists = true
		}
		return true
	})
	return stepwise && lists && calls > 0 && strings.Contains(def.Text(), ".backward(")
}

// pythonList reports a name bound, in its function, to a list display or
// comprehension (`node_stacks = [[TreeNode(h)] for h in hidden]`).
func pythonList(m *rewrite.Model, a *rewrite.Node) bool {
	if a.Type != "identifier" {
		return false
	}
	for _, b := range m.Bindings(a) {
		if b.Value != nil && b.Value.Is("list", "list_comprehension") {
			return true
		}
	}
	return false
}

// callsInTrainingLoop reports a module that calls the model named name
// in a loop that trains (the script that reports it itself).
func callsInTrainingLoop(m *rewrite.Model, name string) bool {
	for _, call := range m.File.OfType("call") {
		fn := call.ChildByField("function")
		if fn == nil || fn.Type != "identifier" || fn.Text() != name {
			continue
		}
		if loops := m.EnclosingLoops(call); len(loops) > 0 && m.Loop(loops[0]).Trains() {
			return true
		}
	}
	return false
}

// rebindsParam reports a model value that moves or wraps a parameter of
// def (`net = net.to(device)` in a create_optimizer(net, ...) helper):
// the model was built by the caller, which reports it.
func rebindsParam(p *Pass, value, def *rewrite.Node, depth int) bool {
	if depth > 8 {
		return false
	}
	root := rewrite.RootName(unchainModuleMethods(value))
	if root == nil || root.Type != "identifier" {
		if value.Type == "call" {
			// torch.nn.DataParallel(net): its module argument.
			if a := rewrite.PositionalArgs(value); len(a) > 0 && a[0].Type == "identifier" {
				root = a[0]
			}
		}
		if root == nil {
			return false
		}
	}
	for _, b := range p.Model.Bindings(root) {
		if b.Kind == rewrite.ParamBinding && b.Stmt == def {
			return true
		}
	}
	b := p.Model.Binding(root)
	return b != nil && b.Kind == rewrite.AssignBinding && b.Value != nil && b.Value != value && rebindsParam(p, b.Value, def, depth+1)
}

// trainingDef returns the project function or class a call calls when it
// trains (its body, or a method's, calls .backward() or .zero_grad()).
func trainingDef(m *rewrite.Model, call *rewrite.Node) *rewrite.ProjectDef {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "identifier" {
		return nil
	}
	if d := m.ImportedDef(fn); d != nil && d.Trains && !d.Var {
		return d
	}
	return nil
}

// handedToTrainer reports that the name bound at target (in m's module)
// is passed to a project function or class that trains.
func handedToTrainer(m *rewrite.Model, target *rewrite.Node, cuda bool) bool {
	for _, b := range m.Bindings(target) {
		if b.Ident != target {
			continue
		}
		for _, u := range b.Uses {
			if args := u.Parent; args != nil {
				if args.Type == "keyword_argument" {
					args = args.Parent
				}
				if args != nil && args.Type == "argument_list" && args.Parent != nil {
					if d := trainingDef(m, args.Parent); d != nil && (cuda || d.UsesCUDA || m.UsesCUDA()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// callArguments are a call's positional arguments and keyword values.
func callArguments(call *rewrite.Node) []*rewrite.Node {
	var out []*rewrite.Node
	args := call.ChildByField("arguments")
	if args == nil {
		return nil
	}
	for _, a := range args.NamedChildren() {
		if a.Type == "keyword_argument" {
			if v := a.ChildByField("value"); v != nil {
				out = append(out, v)
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// builtModel returns the expression that builds the model fn names, when
// it is assigned to a plain name by a statement of this file (`model =
// Net().to(device)`), directly or through the call sites of the function
// fn is a parameter of, with that name.
//
// trainedAt is where the training starts (trainedBy): a construction
// after it in the same scope, or after the training loop in the loop's
// own function, builds a model for something else (a model re-created to
// load the saved weights and predict) and loses to one before it.
func builtModel(p *Pass, fn *rewrite.Node, trainedAt trainingStart) (best *rewrite.Node, name string) {
	bestByUse, bestLate, bestSelf := false, false, false
	// A rebinding after constructions in several branches (`model =
	// model.cuda()` after an if/elif chain of architectures) is where
	// every branch's model passes: the site for them all.
	var built []*rewrite.Node
	var rebinding *rewrite.Node
	rebound := ""
	for _, o := range p.Model.Origins(fn) {
		e := o.Expr
		if e == nil {
			e = o.Call // an instance of a sibling module's class
		}
		if e == nil || e.Type != "call" || o.Index >= 0 {
			continue
		}
		asg := e.Parent
		if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != e {
			continue
		}
		left := asg.ChildByField("left")
		if left == nil || left.Type != "identifier" {
			continue
		}
		byUse := false
		if p.Facts.What(e).Kind != KindModule {
			if p.Facts.What(left).Kind != KindModule {
				continue // neither what builds it nor how the name is used says model
			}
			byUse = true // `model = EfficientNet()` of an unreadable module
		}
		if isLossOrLayer(p, e, left.Text()) || singleLayerModel(p, e) {
			continue // a loss or a single torch.nn layer: nothing to fuse across
		}
		if parameterless(p, left) {
			continue // a feature transform (MelGAN's Audio2Mel): nothing is trained
		}
		if names, any := optimizedModels(p); any && !names[left.Text()] && !feedsOptimized(p, left, names) {
			continue // the file's optimizers step other models: an EMA target, a frozen teacher
		}
		// `model = model.train()` / `.cuda()` / `.apply(init)` rebinds the
		// model built elsewhere: compiling there would wrap it again on
		// every pass of a loop. Such a line is the site only when nothing
		// else builds the model, and never inside a loop.
		if passesItself(e, left.Text()) {
			continue // `model = train_and_test(model, ...)`: handed back, not built
		}
		self := false
		if base := unchainModuleMethods(e); base != nil && base != e && base.Type == "identifier" && base.Text() == left.Text() {
			if p.Model.InLoop(asg) {
				continue
			}
			self = true
			if rebinding == nil || e.Start > rebinding.Start {
				rebinding, rebound = e, left.Text()
			}
		} else {
			built = append(built, e)
		}
		if best != nil && self && !bestSelf {
			continue
		}
		// Several constructions (one per branch): the last one in the file,
		// the main path's in most scripts.
		// A construction known to build a model beats one only the
		// name's use says is a model (`model = torch.load(f)`).
		scope := asg.Ancestor("function_definition", "class_definition")
		late := trainedAt.at >= 0 && e.Start > trainedAt.at && scope == trainedAt.scope ||
			trainedAt.loop != nil && e.Start > trainedAt.loop.End && scope != nil && scope == trainedAt.loop.Ancestor("function_definition")
		if best == nil || bestSelf && !self || bestLate && !late || bestLate == late && (bestByUse && !byUse || bestByUse == byUse && e.Start > best.Start) {
			best, name, bestByUse, bestLate, bestSelf = e, left.Text(), byUse, late, self
		}
	}
	if rebinding != nil && best != nil && !bestLate && rebound == name && alternatives(built, rebinding) {
		best = rebinding
	}
	return best, name
}

// alternatives reports constructions in two or more branches of one if
// statement that after ends after: every branch's model reaches it.
func alternatives(built []*rewrite.Node, after *rewrite.Node) bool {
	if len(built) < 2 {
		return false
	}
	chain := built[0].Ancestor("if_statement")
	if chain == nil || after.Start < chain.End {
		return false
	}
	branches := map[*rewrite.Node]bool{}
	for _, e := range built {
		branch := e.Ancestor("block")
		if branch == nil || branch.Parent == nil || e.Ancestor("if_statement") != chain {
			return false
		}
		branches[branch] = true
	}
	return len(branches) > 1
}

// trainingStart is where the code that runs a training loop starts it:
// the offset at, in scope (the function holding that code; nil at module
// level). A model built in that scope after it is built for prediction.
type trainingStart struct {
	at    int
	scope *rewrite.Node
	// loop is the training loop: a model built after it in its own
	// function is built for prediction too.
	loop *rewrite.Node
}

var noTrainingStart = trainingStart{at: -1}

// trainedBy returns where the training loop is started: the loop itself
// at module level, else the last module-level call of the function that
// holds it, else, when every call of that function is in one other
// function (a Kaggle notebook's run_training(fold) calling train_fn),
// the last call there.
func trainedBy(p *Pass, loop *rewrite.Node) trainingStart {
	at := trainingStartOf(p, loop)
	at.loop = loop
	return at
}

func trainingStartOf(p *Pass, loop *rewrite.Node) trainingStart {
	def := loop.Ancestor("function_definition")
	if def == nil {
		if loop.Ancestor("class_definition") != nil {
			return noTrainingStart
		}
		return trainingStart{at: loop.Start}
	}
	at := noTrainingStart
	var caller *rewrite.Node
	callers := 0
	for _, c := range p.Model.CallSites(def) {
		scope := c.Ancestor("function_definition", "class_definition")
		if scope == nil && c.Start > at.at {
			at = trainingStart{at: c.Start}
		}
		if scope != nil && scope != caller {
			caller, callers = scope, callers+1
		}
	}
	if at.at >= 0 || callers != 1 || caller.Type != "function_definition" {
		return at
	}
	for _, c := range p.Model.CallSites(def) {
		if c.Ancestor("function_definition", "class_definition") == caller && c.Start > at.at {
			at = trainingStart{at: c.Start, scope: caller}
		}
	}
	return at
}

// isLossOrLayer reports a construction that is a loss or a single torch.nn
// layer, seen through the moves real code chains onto it
// (`nn.L1Loss().to(device)`, `DINOLoss(...).cuda()`), or bound to a name
// that says it is the criterion.
func isLossOrLayer(p *Pass, e *rewrite.Node, name string) bool {
	lower := strings.ToLower(name)
	if strings.Contains(lower, "loss") || strings.Contains(lower, "criterion") {
		return true
	}
	e = unchainModuleMethods(e)
	if e != nil && e.Type == "identifier" {
		// `model = model.to(device)` after `model = LogisticRegression(...)`:
		// the network is what the name held (blind sample XX).
		if b := p.Model.ReachingBinding(e, e); b != nil && b.Value != nil {
			e = unchainModuleMethods(b.Value)
		}
	}
	if e == nil || e.Type != "call" {
		return false
	}
	q := p.Model.CalleeName(e)
	if q == "" {
		q = e.ChildByField("function").Text()
	}
	if oneLayer(p, e) {
		return true // a linear probe, of this file or another module: one nn.Linear
	}
	return strings.HasSuffix(q, "Loss") || strings.HasSuffix(q, "Criterion") ||
		strings.HasPrefix(q, "torch.nn.") && !strings.Contains(q, ".Transformer") && !strings.HasSuffix(q, ".Sequential")
}

// singleLayerClass reports a project network class that builds one
// torch.nn layer and nothing else but builtins and functional calls
// (SupContrast's LinearClassifier): compiling it has nothing to fuse.
func singleLayerClass(d *rewrite.ProjectDef) bool {
	layers := 0
	for _, c := range d.Calls {
		switch {
		case pythonBuiltins[c], strings.HasPrefix(c, "torch.nn.functional."):
		case strings.HasPrefix(c, "torch.nn.") && !strings.HasPrefix(c, "torch.nn.init."):
			layers++
		default:
			return false
		}
	}
	return layers == 1
}

// returnsModel reports a returned name (alone or in a returned tuple)
// that is a model.
func returnsModel(p *Pass, rets []*rewrite.Node) bool {
	for _, r := range rets {
		items := []*rewrite.Node{r}
		if r.Is("expression_list", "tuple") {
			items = r.NamedChildren()
		}
		for _, it := range items {
			if it.Type == "identifier" && p.Model.IsModule(it) {
				return true
			}
		}
	}
	return false
}

// doubleBackward reports a file that differentiates through a gradient
// (`create_graph=True`: gradient penalties, R1, path-length and MAML-style
// updates), which torch.compile's AOTAutograd does not support: the
// compiled model fails at that backward.
func doubleBackward(p *Pass) bool {
	// Here, or in a project module this one imports (WGAN-GP's Trainer
	// in training.py computing the gradient penalty).
	return rewrite.CreatesGraph(p.File) || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.DoubleBackward }, 2)
}

// underNoGrad reports a call inside a `with torch.no_grad():` (or
// inference_mode) block of the loop it runs in: the lexical test, cheap
// enough to ask of every forward (InGradContext also follows callers).
func underNoGrad(p *Pass, call, loop *rewrite.Node) bool {
	for a := call.Parent; a != nil && a != loop; a = a.Parent {
		if a.Type != "with_statement" {
			continue
		}
		for _, v := range rewrite.WithContexts(a) {
			if v.Type == "call" {
				q := p.Model.CalleeName(v)
				if strings.HasSuffix(q, ".no_grad") || strings.HasSuffix(q, ".inference_mode") {
					return true
				}
			}
		}
	}
	return false
}

// recurrentNetwork reports a model built around a recurrent layer
// (nn.LSTM, nn.GRU, nn.RNN), by a class of this file or of the project:
// its time goes to cuDNN's recurrent kernels, which torch.compile leaves
// as they are, so there is little for it to fuse.
func recurrentNetwork(p *Pass, value *rewrite.Node) bool {
	if a := value.Parent; a != nil && a.Type == "assignment" && a.ChildByField("left").Type == "identifier" {
		// `if args.model == "Transformer": model = TransformerModel(...)
		// else: model = RNNModel(...)`: every network the name is bound
		// to must be recurrent.
		for _, b := range p.Model.Bindings(a.ChildByField("left")) {
			if b.Value == nil || b.Value == value || b.Kind != rewrite.AssignBinding {
				continue
			}
			v := unchainModuleMethods(b.Value)
			if v == nil || v.Type != "call" {
				continue
			}
			if pos := rewrite.PositionalArgs(v); len(pos) > 0 && pos[0].Text() == b.Name {
				continue // a wrapper of the same model
			}
			if !recurrentClass(p, v) {
				return false
			}
		}
	}
	return recurrentClass(p, unchainModuleMethods(value))
}

// recurrentClass reports a call that builds an instance of a network
// class (of this file or the project) with a recurrent layer.
func recurrentClass(p *Pass, value *rewrite.Node) bool {
	if value == nil || value.Type != "call" {
		return false
	}
	fn := value.ChildByField("function")
	if recurrentClassName(p, fn) {
		return true
	}
	if fn.Type != "identifier" || p.Model.Binding(fn) != nil && p.Model.Binding(fn).Kind != rewrite.AssignBinding {
		return false
	}
	// `neural_net = LstmGruModel` in each branch of an if, then
	// `neural_net(embedding_matrix)`: every class it names must be
	// recurrent (blind sample SS).
	bs := p.Model.Bindings(fn)
	for _, b := range bs {
		if b.Kind != rewrite.AssignBinding || b.Value == nil || !b.Value.Is("identifier", "attribute") || !recurrentClassName(p, b.Value) {
			return false
		}
	}
	return len(bs) > 0
}

// recurrentClassName reports a name of a network class (of this file or
// the project) with a recurrent layer.
func recurrentClassName(p *Pass, name *rewrite.Node) bool {
	return classBuilds(p, name, recurrentLayer)
}

// classBuilds reports a name of a class (of this file or the project)
// whose body calls something pred accepts (by qualified name).
func classBuilds(p *Pass, name *rewrite.Node, pred func(string) bool) bool {
	if b := p.Model.Binding(name); b != nil && b.Kind == rewrite.ClassBinding {
		found := false
		b.Stmt.Walk(func(n *rewrite.Node) bool {
			if n.Type == "call" && pred(p.Model.CalleeName(n)) {
				found = true
			}
			return !found
		})
		return found
	}
	d := p.Model.ImportedDef(name)
	return d != nil && d.Class && slices.ContainsFunc(d.Calls, pred)
}

// graphNetwork reports a call building a network class whose layers are
// PyTorch Geometric's or DGL's (GCNConv, GATConv, dgl.nn layers): every
// batch is a new graph, with its own node and edge counts, and DGL's
// message passing breaks the compiled graph, so a compiled model
// recompiles or falls back (blind sample S32Q's GraphDTA and DrugBAN),
// also one picked from a list of such classes.
func graphNetwork(p *Pass, value *rewrite.Node) bool {
	value = unchainModuleMethods(value)
	if value == nil || value.Type != "call" {
		return false
	}
	graphLayer := func(q string) bool {
		return strings.HasPrefix(q, "torch_geometric.") || strings.HasPrefix(q, "dgl.") || strings.HasPrefix(q, "dgllife.")
	}
	fn := value.ChildByField("function")
	if classBuilds(p, fn, graphLayer) {
		return true
	}
	// `modeling = [GINConvNet, GATNet, GCNNet][int(sys.argv[1])]`: a
	// class picked from a list, every one of which must be a GNN.
	if b := p.Model.Binding(fn); fn.Type == "identifier" && b != nil && b.Kind == rewrite.AssignBinding && b.Value != nil && b.Value.Type == "subscript" {
		if list := b.Value.ChildByField("value"); list != nil && list.Is("list", "tuple") && len(list.NamedChildren()) > 0 {
			return !slices.ContainsFunc(list.NamedChildren(), func(c *rewrite.Node) bool { return !classBuilds(p, c, graphLayer) })
		}
	}
	return false
}

// hostBoundNetwork reports a call building an instance of a network class
// (of this file or the project) whose forward, or a project function it
// calls, brings tensors to the host (`.cpu()`, `.numpy()`, `.item()`,
// `.tolist()`): glow-tts's forward runs a Cython alignment search on
// `.cpu().numpy()` arrays. torch.compile breaks its graph there on every
// step, so there is little to fuse (blind sample DD).
func hostBoundNetwork(p *Pass, value *rewrite.Node) bool {
	if value == nil || value.Type != "call" {
		return false
	}
	m, class := builtClass(p.Model, value)
	if class == nil {
		return false
	}
	forward := rewrite.MethodOf(class, "forward")
	return forward != nil && bringsToHost(m, forward, 2)
}

// builderCompiles reports a model built by a function of the project
// that compiles it in place (`model.compile()`, nn.Module.compile since
// torch 2.2) or with torch.compile before returning it: blind sample
// S26C's steer, whose PilotNetWrapped factory compiles the model it
// returns.
func builderCompiles(p *Pass, value *rewrite.Node) bool {
	if value == nil || value.Type != "call" {
		return false
	}
	fn := value.ChildByField("function")
	var m *rewrite.Model
	var def *rewrite.Node
	if d := p.Model.ImportedDef(fn); d != nil && !d.Class {
		m, def = p.Model.DefinitionOf(d)
	} else if local := p.Model.FunctionDef(value); local != nil {
		m, def = p.Model, local
	}
	if def == nil {
		return false
	}
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "call" {
			return !found
		}
		if f := n.ChildByField("function"); f.Type == "attribute" && f.ChildByField("attribute").Text() == "compile" {
			obj := f.ChildByField("object")
			// (re.compile takes its pattern positionally; a module's
			// compile() takes keywords only.)
			found = m.QualifiedName(obj) == "torch" || m.IsModule(obj) || obj.Type == "identifier" && len(rewrite.PositionalArgs(n)) == 0
		}
		return !found
	})
	return found
}

// builtClass returns the class, of m's file or the project, that call
// instantiates, with the model of the file that defines it; nil when call
// builds no such class.
func builtClass(m *rewrite.Model, call *rewrite.Node) (*rewrite.Model, *rewrite.Node) {
	fn := call.ChildByField("function")
	if b := m.Binding(fn); b != nil && b.Kind == rewrite.ClassBinding {
		return m, b.Stmt
	}
	if d := m.ImportedDef(fn); d != nil && d.Class {
		return m.DefinitionOf(d)
	}
	return m, nil
}

// bringsToHost reports code that calls .cpu(), .numpy(), .item() or
// .tolist(), or, depth levels deep, a function of the project that does.
func bringsToHost(m *rewrite.Model, code *rewrite.Node, depth int) bool {
	found := false
	code.Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "call" {
			return !found
		}
		fn := n.ChildByField("function")
		if fn != nil && fn.Type == "attribute" {
			switch fn.ChildByField("attribute").Text() {
			case "cpu", "numpy", "item", "tolist", "nonzero":
				found = true
				return false
			}
		}
		if q := m.CalleeName(n); q == "torch.nonzero" || numpyArrayBuilders[q] || strings.HasPrefix(q, "numpy.random.") {
			// A data-dependent shape (the experts' token counts of a
			// mixture of experts), or NumPy building a warp grid on the
			// host every forward: a graph break on every step (blind
			// samples S25K's MoE layers, S25L's SOF-VSR).
			found = true
			return false
		}
		if depth > 0 && fn != nil && fn.Type == "identifier" {
			// A helper class built in the forward (`SparseDispatcher(
			// gates)`, whose __init__ splits by `.tolist()` counts).
			switch b := m.Binding(fn); {
			case b == nil:
			case b.Kind == rewrite.ClassBinding:
				for _, name := range []string{"__init__", "__call__"} {
					if meth := rewrite.MethodOf(b.Stmt, name); !found && meth != nil {
						found = bringsToHost(m, meth, depth-1)
					}
				}
			case b.Kind == rewrite.DefBinding && b.Stmt != nil && b.Stmt != code:
				// A function of the same module (SOF-VSR's
				// optical_flow_warp, which builds its grid with np.meshgrid).
				found = bringsToHost(m, b.Stmt, depth-1)
			}
		}
		if depth > 0 && fn != nil && fn.Is("identifier", "attribute") {
			if d := m.ImportedDef(fn); d != nil && !d.Class {
				if fm, node := m.DefinitionOf(d); node != nil {
					found = bringsToHost(fm, node, depth-1)
				}
			}
			// A submodule's forward: `self.e2s(h, batch)` where __init__
			// set `self.e2s = Embedding2Score(...)` (SR-GNN's scorer
			// splits by `sections.cpu().numpy()`: blind sample S16C).
			for _, v := range m.SelfAttrValues(fn) {
				if found || v.Type != "call" {
					continue
				}
				for _, built := range builtModules(m, v) {
					if cm, class := builtClass(m, built); !found && class != nil {
						if forward := rewrite.MethodOf(class, "forward"); forward != nil {
							found = bringsToHost(cm, forward, depth-1)
						}
					}
				}
			}
		}
		return !found
	})
	return found
}

// numpyArrayBuilders are the NumPy calls that build arrays on the host (a
// forward's warp grid); scalar arithmetic (`np.ceil(H / w)`) on Python
// numbers traces as constants and is no graph break.
var numpyArrayBuilders = map[string]bool{
	"numpy.meshgrid": true, "numpy.tile": true, "numpy.array": true, "numpy.asarray": true,
	"numpy.zeros": true, "numpy.ones": true, "numpy.arange": true, "numpy.linspace": true,
	"numpy.stack": true, "numpy.concatenate": true, "numpy.where": true,
}

// builtModules returns the calls a submodule's value builds: the value
// itself, or the blocks an nn.Sequential or nn.ModuleList holds
// (`nn.Sequential(*[Block(n_embed) for _ in range(n_layer)])`).
func builtModules(m *rewrite.Model, v *rewrite.Node) []*rewrite.Node {
	switch m.CalleeName(v) {
	case "torch.nn.Sequential", "torch.nn.ModuleList":
	default:
		return []*rewrite.Node{v}
	}
	var out []*rewrite.Node
	v.ChildByField("arguments").Walk(func(n *rewrite.Node) bool {
		if n.Type == "call" && len(out) < 8 {
			out = append(out, n)
		}
		return n.Type != "call"
	})
	return out
}

// oneLayer reports a call building one torch.nn layer (no container), or
// an instance of a class, of the file or the project, whose only layer
// with weights is one (weightLayers): a linear probe's head of pooling,
// flattening and one nn.Linear (CMC's LinearClassifierResNet: blind
// sample S16B).
func oneLayer(p *Pass, call *rewrite.Node) bool {
	q := p.Model.CalleeName(call)
	if strings.HasPrefix(q, "torch.nn.") {
		return layerName(q)
	}
	m, class := builtClass(p.Model, call)
	if class == nil {
		if d := p.Model.ImportedDef(call.ChildByField("function")); d != nil && d.Class {
			return singleLayerClass(d) // its module could not be read: its summary
		}
		return false
	}
	n, known := weightLayers(m, class, 0)
	return known && n == 1
}

// weightLayers counts the torch.nn layers with weights that class builds,
// itself or through the classes it builds (of its module or the
// project); containers, activations, pooling, dropout and flattening have
// none, and normalization layers do not count. Not known when it calls a function of the module or project,
// which may build layers, or builds a recurrent or Transformer layer, or
// nests deeper than three classes.
func weightLayers(m *rewrite.Model, class *rewrite.Node, depth int) (n int, known bool) {
	if depth > 3 {
		return 0, false
	}
	known = true
	class.Walk(func(c *rewrite.Node) bool {
		if !known || c.Type != "call" {
			return known
		}
		q := m.CalleeName(c)
		switch {
		case pythonBuiltins[q]:
		case strings.HasPrefix(q, "torch.nn.functional.") || strings.HasPrefix(q, "torch.nn.init."):
		case strings.HasPrefix(q, "torch.nn."):
			if !layerName(q) {
				known = q == "torch.nn.Sequential" || q == "torch.nn.ModuleList" // containers: their items are walked
				return known
			}
			if !weightFreeLayer(q) && !normalizationLayer(q) {
				n++
			}
		default:
			if def := m.CalledDef(c); def != nil {
				if class.Contains(def) {
					return true // a method of the class: walked with it
				}
				if def.Type == "function_definition" && def.ChildByField("name").Text() == "__init__" {
					def = enclosingClass(def)
				}
				if def == nil || def.Type != "class_definition" {
					known = false // a function of the module: it may build layers
					return false
				}
				k, ok := weightLayers(m, def, depth+1)
				n, known = n+k, ok
				return true
			}
			if im, inner := builtClass(m, c); inner != nil {
				k, ok := weightLayers(im, inner, depth+1)
				n, known = n+k, ok
			} else if d := m.ImportedDef(c.ChildByField("function")); d != nil {
				known = false // a function of the project: it may build layers
			} else if keptOnSelf(c) || fromLibrary(q, largeLibraries) {
				// `self.model = resnet50(pretrained)`: a library's network
				// (Proxy-Anchor's Resnet50 wrapper), also one whose children
				// the class keeps (`modules = list(resnet152().children())`:
				// an image-captioning encoder).
				known = false
			}
		}
		return known
	})
	return n, known
}

// keptOnSelf reports a call whose value is assigned to an attribute of
// self.
func keptOnSelf(call *rewrite.Node) bool {
	asg := call.Parent
	if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != call {
		return false
	}
	return selfAttribute(asg.ChildByField("left"))
}

// weightFreeLayer reports a torch.nn layer without weights: an
// activation, pooling, dropout, flattening or identity.
func weightFreeLayer(q string) bool {
	name := strings.TrimPrefix(q, "torch.nn.")
	switch name {
	case "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "ELU", "SELU", "Mish", "Hardswish", "Tanh", "Sigmoid",
		"Softmax", "LogSoftmax", "Flatten", "Unflatten", "Identity":
		return true
	}
	return strings.Contains(name, "Pool") || strings.HasPrefix(name, "Dropout") || strings.HasPrefix(name, "AlphaDropout")
}

// normalizationLayer reports a torch.nn normalization layer: its weights
// scale features elementwise, so a BatchNorm before a linear probe's one
// nn.Linear leaves it a linear probe (SwAV's RegLog: blind sample S17A).
func normalizationLayer(q string) bool {
	name := strings.TrimPrefix(q, "torch.nn.")
	return strings.HasPrefix(name, "BatchNorm") || strings.HasPrefix(name, "SyncBatchNorm") || name == "LayerNorm" || name == "GroupNorm" || strings.HasPrefix(name, "InstanceNorm")
}

// layerName reports a torch.nn callee that is one layer, not a container
// or a Transformer.
func layerName(q string) bool {
	return !strings.Contains(q, "Transformer") && !strings.HasSuffix(q, "Sequential") && !strings.HasSuffix(q, "ModuleList") &&
		!strings.HasSuffix(q, "ModuleDict") && !strings.HasSuffix(q, "LSTM") && !strings.HasSuffix(q, "GRU")
}

// optimizedModels returns the names whose parameters the file's
// optimizers step (`SGD(list(online.parameters()) + list(pred.parameters()))`,
// parameter groups included: the root name of each `X.parameters()` in an
// optimizer's arguments), and whether the file builds an optimizer at all.
// A model whose parameters no optimizer of a file that builds optimizers
// steps is not trained there: BYOL's EMA target network (blind sample
// LL).
func optimizedModels(p *Pass) (map[string]bool, bool) {
	type result struct {
		names           map[string]bool
		any, unknowable bool
	}
	r := p.Memo("opt004.optimizedModels", func() any {
		res := result{names: map[string]bool{}}
		for _, call := range p.File.OfType("call") {
			if p.Facts.What(call).Kind != KindOptimizer {
				continue
			}
			res.any = true
			args := call.ChildByField("arguments")
			if args == nil {
				continue
			}
			args.Walk(func(n *rewrite.Node) bool {
				if n.Type != "call" || callAttr(n) != "parameters" && callAttr(n) != "named_parameters" {
					return true
				}
				obj := n.ChildByField("function").ChildByField("object")
				for obj != nil && obj.Type == "attribute" {
					obj = obj.ChildByField("object")
				}
				if obj != nil && obj.Type == "identifier" && obj.Text() != "self" {
					res.names[obj.Text()] = true
				} else {
					res.unknowable = true // parameters of something unnamed, or of the class itself: no conclusion
				}
				return false
			})
			// (`[p for p in model.parameters() if p.requires_grad]`
			// names its model as plainly: blind sample S33AD's Wav2Lip,
			// whose frozen SyncNet expert was called trained.)
			if arg := rewrite.Arg(call, 0, "params"); arg == nil || !arg.Is("call", "binary_operator", "list", "list_comprehension", "generator_expression") {
				res.unknowable = true // a parameter list built elsewhere: no conclusion
			}
		}
		return res
	}).(result)
	return r.names, r.any && !r.unknowable
}

// bareContainer reports a model built as a bare `nn.Module()` that
// children are added to (`model.add_module('encoder', encoder)`), here or
// in the project function that returns it: it has no forward, the loop
// calls its children, and torch.compile of it compiles nothing while
// prefixing its checkpoint keys (blind sample S37V's NetVLAD trainers).
func bareContainer(p *Pass, value *rewrite.Node) bool {
	isBare := func(m *rewrite.Model, e *rewrite.Node) bool {
		e = unchainModuleMethods(e)
		if e == nil || e.Type != "call" {
			return false
		}
		q := m.CalleeName(e)
		return q == "torch.nn.Module" || q == "torch.nn.modules.module.Module"
	}
	if isBare(p.Model, value) {
		return true
	}
	returnsBare := func(fm *rewrite.Model, def *rewrite.Node) bool {
		if def == nil || def.Type != "function_definition" {
			return false
		}
		for _, r := range rewrite.ReturnValues(def) {
			if r.Type == "identifier" {
				if v := fm.ValueOf(r); v != nil && isBare(fm, v) {
					return true
				}
			}
			if isBare(fm, r) {
				return true
			}
		}
		return false
	}
	built := unchainModuleMethods(value)
	if built != nil && built.Type == "identifier" {
		// `model = model.to(device)` after `model = construct_model(...)`.
		for _, o := range p.Model.Origins(built) {
			switch {
			case o.Def != nil && !o.Def.Class && o.Model == nil:
				if fm, def := p.Model.DefinitionOf(o.Def); returnsBare(fm, def) {
					return true
				}
			case o.Expr != nil && o.Model == nil:
				if isBare(p.Model, o.Expr) {
					return true
				}
				if e := unchainModuleMethods(o.Expr); e != nil && e.Type == "call" {
					if fm, def := calledFunction(p.Model, e); returnsBare(fm, def) {
						return true
					}
				}
			}
		}
		return false
	}
	if built == nil || built.Type != "call" {
		return false
	}
	fm, def := calledFunction(p.Model, built)
	return returnsBare(fm, def)
}

// onlyUntrainingMethods reports a project class built by call whose
// instance only calls methods that train nothing (none of
// d.TrainingMethods): `trainer.test(...)` alone (onlyCallsMethods).
func onlyUntrainingMethods(p *Pass, call *rewrite.Node, d *rewrite.ProjectDef) bool {
	if len(d.TrainingMethods) == 0 {
		return false // (a summary without them: no conclusion)
	}
	return onlyCallsMethods(p, call, func(method string) bool { return !slices.Contains(d.TrainingMethods, method) })
}

// handsRecurrentNetwork reports a call that hands a trainer a model built
// around a recurrent layer (recurrentNetwork), among its arguments.
func handsRecurrentNetwork(p *Pass, call *rewrite.Node) bool {
	for _, a := range callArguments(call) {
		if a.Type != "identifier" || !p.Model.IsModule(a) {
			continue
		}
		if value, _ := builtModel(p, a, noTrainingStart); value != nil && recurrentNetwork(p, value) {
			return true
		}
	}
	return false
}

// feedsOptimized reports a model name that the value of an optimized
// name is built from (`model = nn.DataParallel(net)` with the optimizer
// over model.parameters(): net is trained too), or that is handed to a
// function of this file as the parameter an optimizer there steps
// (`train(32, net, 30)` with `def train(batch_size, model, epochs)`
// building its optimizer over model.parameters()).
func feedsOptimized(p *Pass, name *rewrite.Node, optimized map[string]bool) bool {
	if handedToOptimized(p, name, optimized) {
		return true
	}
	found := false
	for _, id := range p.File.OfType("identifier") {
		if found {
			break
		}
		if !optimized[id.Text()] || id.Parent == nil || id.Parent.Type != "assignment" || id.Parent.ChildByField("left") != id {
			continue
		}
		if v := id.Parent.ChildByField("right"); v != nil {
			v.Walk(func(n *rewrite.Node) bool {
				if n.Type == "identifier" && n.Text() == name.Text() {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// handedToOptimized reports an assignment target (a model's name) that
// is handed to a function of this file as a parameter whose name an
// optimizer there steps.
func handedToOptimized(p *Pass, name *rewrite.Node, optimized map[string]bool) bool {
	return slices.ContainsFunc(handedAs(p, name), func(param *rewrite.Node) bool {
		return optimized[param.Text()] && optimizesIn(p, param.Ancestor("function_definition"), param.Text())
	})
}

// optimizesIn reports an optimizer built in fn over the parameters of
// name (`torch.optim.Adam(model.parameters())` in `def train(model,
// ...)`): a checkpoint loader's `model` parameter is not stepped there,
// whatever the file's other optimizers step (blind sample S33AD's
// Wav2Lip, whose frozen SyncNet expert, handed to `load_checkpoint(path,
// model, ...)`, was called trained).
func optimizesIn(p *Pass, fn *rewrite.Node, name string) bool {
	if fn == nil {
		return false
	}
	found := false
	fn.Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "call" || p.Facts.What(n).Kind != KindOptimizer {
			return !found
		}
		if args := n.ChildByField("arguments"); args != nil {
			args.Walk(func(a *rewrite.Node) bool {
				if a.Type == "call" && (callAttr(a) == "parameters" || callAttr(a) == "named_parameters") {
					obj := a.ChildByField("function").ChildByField("object")
					for obj != nil && obj.Type == "attribute" {
						obj = obj.ChildByField("object")
					}
					found = found || obj != nil && obj.Text() == name
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// handedAs returns the parameters of this file's functions that an
// assignment target's value is handed to at their calls (`train(net,
// ...)` with `def train(model, ...)`: model).
func handedAs(p *Pass, name *rewrite.Node) []*rewrite.Node {
	b := p.Model.TargetBinding(name)
	if b == nil {
		return nil
	}
	var out []*rewrite.Node
	for _, u := range b.Uses {
		args := u.Parent
		if args == nil || args.Type != "argument_list" || args.Parent == nil {
			continue
		}
		call := args.Parent
		def := p.Model.FunctionDef(call)
		if def == nil || def.ChildByField("parameters") == nil {
			continue
		}
		for _, param := range def.ChildByField("parameters").NamedChildren() {
			if param.Type == "identifier" && rewrite.ArgumentFor(def, call, param) == u {
				out = append(out, param)
			}
		}
	}
	return out
}

// assignedName is the identifier a value is assigned to (`net` in `net =
// Net()`), nil for any other value.
func assignedName(value *rewrite.Node) *rewrite.Node {
	if value == nil || value.Parent == nil || value.Parent.Type != "assignment" || value.Parent.ChildByField("right") != value {
		return nil
	}
	if left := value.Parent.ChildByField("left"); left != nil && left.Type == "identifier" {
		return left
	}
	return nil
}

// unfrozenPart reports a loop over the parameters of name or of one of
// its submodules that sets requires_grad back on: a fine-tune that
// freezes the model, then trains its last blocks (rasbt's
// gpt_class_finetune.py).
func unfrozenPart(p *Pass, name string) bool {
	for _, loop := range p.File.OfType("for_statement") {
		if module, _, on := parameterLoop(loop); on && (module == name || strings.HasPrefix(module, name+".")) {
			return true
		}
	}
	return false
}

// opacusPrivate reports a file that trains with Opacus's differential
// privacy: it builds a PrivacyEngine, or calls make_private or
// make_private_with_epsilon on one.
func opacusPrivate(p *Pass) bool {
	return p.Memo("torch.opacusPrivate", func() any {
		return p.File.Spells("opacus") && (p.File.SpellsAny([]string{"PrivacyEngine", "make_private"}))
	}).(bool)
}

// projectPackageNames are the first parts of module paths that name a
// project's own package (`from models.network import Network`), not an
// installed library.
var projectPackageNames = map[string]bool{"models": true, "model": true, "networks": true, "network": true, "nets": true, "net": true,
	"src": true, "lib": true, "modules": true, "arch": true, "archs": true, "architectures": true}

// missingProjectClass reports a call of a name imported from a project
// package that the repository does not hold (DBC imports
// `models.network`, and has no models folder): its class is unread, and
// the value is a model only by its use. A class gpuopt reads, a library's
// or a dynamic import's is not such a call.
func missingProjectClass(p *Pass, call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	root := fn
	for root != nil && root.Type == "attribute" {
		root = root.ChildByField("object")
	}
	if root == nil || root.Type != "identifier" || p.Model.ImportedDef(fn) != nil || p.Facts.What(call).Kind != KindUnknown {
		return false
	}
	b := p.Model.Binding(root)
	if b == nil || b.Kind != rewrite.ImportBinding || b.Relative != "" {
		return false
	}
	first, _, _ := strings.Cut(b.Qualified, ".")
	return projectPackageNames[first]
}

// dataParallelCompile withholds the compile edit, and says why, in a file
// that wraps its model in nn.DataParallel: over several GPUs it
// replicates the module on every step, which torch.compile does not
// follow (pytorch/pytorch#94636), so the compile belongs on the inner
// module or after the move to DistributedDataParallel (OPT005). Blind
// samples S39N's KiTS19 U-Net and S39O's nodule detector, trained on two
// GPUs, judged the plain advice false.
func dataParallelCompile(p *Pass, fix *rewrite.Fix, msg *string) *rewrite.Fix {
	if len(p.Model.CallsTo("torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel")) == 0 {
		return fix
	}
	*msg += "; the model is wrapped in nn.DataParallel, whose per-step replication over several GPUs torch.compile does not follow: compile the module inside it (before wrapping) or move to DistributedDataParallel first (OPT005)"
	return nil
}

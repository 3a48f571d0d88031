package patterns

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CudnnBenchmark is OPT003.
var CudnnBenchmark = &Rule{
	Code:  "OPT003",
	Name:  "cudnn-benchmark",
	Title: "Set torch.backends.cudnn.benchmark = True in convolutional training",
	// A hint: no gain measured at fixed shapes, and a measured loss where
	// shapes change within a short run (each new shape is benchmarked).
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	// No Names gate: the convolutions may be built by a sibling module's model class or named by a timm model string.
	SkipTestModules: true,
	Check:           checkCudnnBenchmark,
}

func init() { Register(CudnnBenchmark) }

func checkCudnnBenchmark(p *Pass) {
	if !p.Model.IsTrainingScript() || !p.Model.UsesCUDA() {
		return
	}
	// Determinism asked for on a branch (`if args.seed is not None:
	// cudnn.deterministic = True; cudnn.benchmark = False`) leaves the
	// default path without benchmark; asked for anywhere else, stay silent.
	branch := optionalDeterminism(p)
	if branch == nil && (determinismRequested(p) || mentionsQualified(p, "torch.backends.cudnn.benchmark")) {
		return
	}
	if callsProjectSetter(p, "cudnn.benchmark", "cudnn.deterministic", "use_deterministic_algorithms") {
		return // set (either way) by a helper of the project the script calls
	}
	if circuitSimulation(p) {
		return // the step is a quantum circuit simulation, not its convolutions
	}
	if opacusPrivate(p) {
		// Opacus samples each batch by Poisson sampling (make_private's
		// default): the batch size changes nearly every step, where
		// benchmark mode times the algorithms again for each new shape
		// (blind sample S36N).
		return
	}
	if cudnnSwitchedOff(p) {
		// `torch.backends.cudnn.enabled = False`: convolutions run
		// without cuDNN, and benchmark mode has nothing to choose
		// (blind sample S31E's Optuna CNN).
		return
	}
	if runByBenchmarkSetter(p) {
		return // the script that runs this module's training sets it (main.py)
	}
	if variableShapeBatches(p) {
		return
	}
	if reinforcementLearning(p) {
		// A Gym agent's step waits for the environment, and its small
		// convolutions see one or two fixed shapes, where benchmark mode
		// measured no gain (blind sample S15A's PPO car racer).
		return
	}
	conv := false
	for _, call := range torchCalls(p) {
		if offDefaultBranch(p.Model, call) {
			continue // `elif args.encoder == "cnn":` with "mlp" the default
		}
		q := p.Model.CalleeName(call)
		if convCallee(q) && !pointwiseConv(q, call) || q == "timm.create_model" && convTimmModel(rewrite.Arg(call, 0, "model_name")) || torchvisionByName(p, call) {
			conv = true
			break
		}
		// A model class of a sibling module that builds convolutions.
		if fn := call.ChildByField("function"); fn != nil && fn.Type == "identifier" {
			// (Its convolutions all of kernel size 1, written positionally
			// as `nn.Conv1d(12, 64, 1)`: a point-cloud encoder's shared
			// MLP, blind sample S20B.)
			if d := p.Model.ImportedDef(fn); d != nil && p.Model.ClassAny(d, spatialConvClass) && !patchConvOnly(p.Model, d) && !transformerBackbone(p.Model, d) && !derivesDataset(d) && !frozenAside(p, call) {
				conv = true
				break
			}
		}
	}
	if !conv {
		return
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok {
		return
	}
	var fix *rewrite.Fix
	// With a determinism branch the new line must run before it: the
	// branch then switches benchmark off again.
	if e, ok := insertModuleStatement(p, "torch.backends.cudnn.benchmark", " = True"); ok && (branch == nil || e.End <= branch.Start) {
		fix = Fix(rewrite.Hint, "Set torch.backends.cudnn.benchmark = True after the imports", e)
	}
	// Lead with when it pays, then the measurements that bound it: blind
	// samples S33B, S33M and S33W read the old order ("no gain measured
	// at fixed standard shapes" first) as the message arguing against
	// itself.
	const pays = "benchmark mode times them once per input shape and keeps the fastest, which pays over many steps of the same shapes where the heuristics choose poorly (unusual kernels or resolutions, 3-D convolutions); a ResNet-18 at batch 128 measured 1.00×, where they already choose well, and a short run with a few batch sizes 0.09× (each new shape is timed first)"
	msg := "convolutional training without torch.backends.cudnn.benchmark = True: cuDNN picks convolution algorithms by heuristics; " + pays + "; not reproducible bit for bit"
	if branch != nil {
		line := p.File.Src.LineOf(branch.Start) + 1
		msg = "convolutional training without torch.backends.cudnn.benchmark = True when determinism is not chosen: cuDNN picks convolution algorithms by heuristics; " + pays + "; the branch at line " +
			strconv.Itoa(line) + " that chooses determinism turns benchmark off again after this runs"
	}
	p.ReportRange(start, end, msg, fix)
}

// optionalDeterminism returns the if statement that requests determinism
// when every request in the file is `<x>.deterministic = True` inside one
// branch of an if, and that branch also sets `<x>.benchmark = False` (so a
// benchmark switched on after the imports is switched off again at run
// time when determinism is chosen), and nothing else in the file mentions
// benchmark or other determinism switches. Otherwise nil.
func optionalDeterminism(p *Pass) *rewrite.Node {
	if p.File.Spells("use_deterministic_algorithms") {
		return nil
	}
	for _, n := range p.File.OfType("string") {
		if strings.Contains(n.Text(), "CUBLAS_WORKSPACE_CONFIG") {
			return nil
		}
	}
	var branch *rewrite.Node
	var turnsOff bool
	for _, name := range []string{"deterministic", "benchmark"} {
		for _, id := range p.File.Identifiers(name) {
			if id.Field != "attribute" || id.Parent.Type != "attribute" {
				if id.Field == "name" && id.Parent.Type == "keyword_argument" {
					return nil // Trainer(deterministic=True), benchmark=...
				}
				continue // a variable so named
			}
			stmt := rewrite.Statement(id)
			if stmt == nil || stmt.Type != "expression_statement" {
				return nil
			}
			as := stmt.NamedChildren()
			if len(as) != 1 || as[0].Type != "assignment" || as[0].ChildByField("left") != id.Parent {
				return nil // read, or assigned some other way
			}
			value := strings.TrimSpace(as[0].ChildByField("right").Text())
			if name == "deterministic" && value != "True" || name == "benchmark" && value != "False" {
				return nil
			}
			// The innermost if whose branch (not its condition) holds it,
			// inside the same function.
			var cond *rewrite.Node
			for b := stmt.Parent; b != nil && !b.Is("function_definition", "module"); b = b.Parent {
				if b.Is("if_statement") {
					cond = b
					break
				}
			}
			if cond == nil || branch != nil && cond != branch {
				return nil
			}
			branch = cond
			if name == "benchmark" {
				turnsOff = true
			}
		}
	}
	if !turnsOff {
		return nil
	}
	if isMainGuard(branch) {
		// `if __name__ == "__main__": ... cudnn.benchmark = False` runs
		// whenever the script does: a choice, not an option (blind
		// sample S38T's Tacotron2, whose variable-length batches it
		// keeps out of benchmark mode).
		return nil
	}
	if body := rewrite.Statements(branch.ChildByField("consequence")); len(body) > 0 && rewrite.OnGPUBranch(body[0]) {
		// `if args.cuda: ... deterministic = True`: the test for a GPU,
		// so on a GPU determinism is chosen, not optional (blind sample
		// S39I's SATNet).
		return nil
	}
	if cond := branch.ChildByField("condition"); cond != nil && cond.Type == "call" && p.Model.CalleeName(cond) == "torch.cuda.is_available" {
		// `if torch.cuda.is_available(): ... deterministic = True`: on a
		// GPU the branch always runs, so determinism is chosen, not
		// optional (blind sample S37AI's PMAES seed_all).
		return nil
	}
	return branch
}

// pointwiseConv reports an nn.Conv layer of kernel size 1
// (rewrite.PointwiseConv), with no algorithm for benchmark mode to choose
// (blind sample S15F's point-cloud Transformer, whose only convolutions
// are such projections).
func pointwiseConv(q string, call *rewrite.Node) bool { return rewrite.PointwiseConv(q, call) }

// patchConvOnly reports a project class whose only convolutions, itself
// or in the classes it builds (three levels, in its module or imported
// there), embed patches: a kernel as large as its stride, or a layer kept
// as a patch embedding (`self.patch_embeddings = Conv2d(...)`). A vision
// transformer's one strided convolution runs once per image, where
// benchmark mode has nothing to choose (blind sample S17H's TransFG).
func patchConvOnly(m *rewrite.Model, d *rewrite.ProjectDef) bool {
	fm, cls := m.DefinitionOf(d)
	if fm == nil || cls == nil || cls.Type != "class_definition" {
		return false
	}
	convs, ok := 0, true
	seen := map[*rewrite.Node]bool{}
	var walk func(fm *rewrite.Model, cls *rewrite.Node, depth int)
	walk = func(fm *rewrite.Model, cls *rewrite.Node, depth int) {
		if seen[cls] || depth > 3 {
			return
		}
		seen[cls] = true
		for _, c := range fm.File.OfTypeIn(cls, "call") {
			if !ok {
				return
			}
			q := fm.CalleeName(c)
			if convCallee(q) {
				if !patchEmbedding(c) {
					ok = false
				}
				convs++
				continue
			}
			fn := c.ChildByField("function")
			if fn == nil || fn.Type != "identifier" {
				continue
			}
			if b := fm.Binding(fn); b != nil && b.Kind == rewrite.ClassBinding {
				walk(fm, b.Stmt, depth+1)
			} else if inner := fm.ImportedDef(fn); inner != nil && inner.Class {
				if im, node := fm.DefinitionOf(inner); im != nil && node != nil && node.Type == "class_definition" {
					walk(im, node, depth+1)
				}
			}
		}
	}
	walk(fm, cls, 0)
	return ok && convs > 0
}

// patchEmbedding reports a convolution that embeds patches: its kernel
// spelled as its stride (`kernel_size=patch_size, stride=patch_size`),
// or kept in an attribute named for patches.
func patchEmbedding(call *rewrite.Node) bool {
	k, st := rewrite.Arg(call, 2, "kernel_size"), rewrite.Arg(call, 3, "stride")
	if k != nil && st != nil && k.Text() == st.Text() {
		return true
	}
	if asg := call.Parent; asg != nil && asg.Type == "assignment" && asg.ChildByField("right") == call {
		if l := asg.ChildByField("left"); l != nil && l.Type == "attribute" && strings.Contains(strings.ToLower(l.ChildByField("attribute").Text()), "patch") {
			return true
		}
	}
	return false
}

// spatialConvClass reports a project class building a convolution of a
// kernel other than 1, or a convolutional torchvision model.
func spatialConvClass(d *rewrite.ProjectDef) bool {
	return d.SpatialConv || slices.ContainsFunc(d.Calls, func(q string) bool { return strings.HasPrefix(q, "torchvision.models.") && convCallee(q) })
}

// convCallee reports a convolution layer or a convolutional torchvision
// model.
func convCallee(q string) bool {
	return strings.HasPrefix(q, "torch.nn.Conv") || strings.HasPrefix(q, "torch.nn.ConvTranspose") ||
		strings.HasPrefix(q, "torchvision.models.") && !strings.Contains(q, "vit") && !strings.Contains(q, "swin")
}

// torchvisionByName reports a torchvision model picked by name at run time,
// `models.__dict__[args.arch]()`: most of its architectures are
// convolutional (and benchmark costs the others nothing but its search).
func torchvisionByName(p *Pass, call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "subscript" {
		return false
	}
	return p.Model.QualifiedName(fn.ChildByField("value")) == "torchvision.models.__dict__"
}

// convTimmModel reports a timm model name of a convolutional family.
func convTimmModel(name *rewrite.Node) bool {
	s, ok := rewrite.StringValue(name)
	if !ok {
		return false
	}
	for _, f := range []string{"resnet", "resnext", "efficientnet", "convnext", "regnet", "densenet", "mobilenet", "vgg", "inception", "xception", "dla", "dpn", "senet", "mnasnet"} {
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

// transformerBackbone reports a project class that builds a timm
// Transformer backbone (`timm.create_model('swin_base_patch4_window7_224',
// features_only=True)`: no ResNet-like name, see convTimmModel): its own
// convolutions are a head over the backbone's small maps, and the step's
// time is the attention's (blind sample S28C's age and gender network).
func transformerBackbone(m *rewrite.Model, d *rewrite.ProjectDef) bool {
	dm, node := m.DefinitionOf(d)
	if dm == nil || node == nil {
		return false
	}
	found := false
	node.Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "call" || dm.CalleeName(n) != "timm.create_model" {
			return !found
		}
		if name := rewrite.Arg(n, 0, "model_name"); name != nil {
			if s, ok := rewrite.StringValue(name); ok && !convTimmModel(name) && transformerName(s) {
				found = true
			}
		}
		return !found
	})
	return found
}

// transformerName reports a timm model name of a vision Transformer.
func transformerName(s string) bool {
	s = strings.ToLower(s)
	for _, f := range []string{"swin", "vit", "deit", "beit", "eva", "cait", "pvt", "twins", "xcit", "maxvit"} {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// runByBenchmarkSetter reports a module whose top-level functions or
// classes are called from other project modules that set
// cudnn.benchmark (or ask for determinism) themselves: a main.py that
// turns benchmark on and then runs the GAN classes of this file.
func runByBenchmarkSetter(p *Pass) bool {
	for _, st := range p.File.Root.NamedChildren() {
		def := st
		if def.Type == "decorated_definition" {
			def = def.ChildByField("definition")
		}
		if def == nil {
			continue
		}
		if def.Type == "class_definition" {
			def = rewrite.MethodOf(def, "__init__")
		}
		if def == nil || def.Type != "function_definition" {
			continue
		}
		for _, fc := range p.Model.ForeignCallSites(def) {
			f := fc.Model.File
			if f.Spells("benchmark") && f.Spells("cudnn") || fc.Model.RequestsDeterminism() {
				return true
			}
		}
	}
	return false
}

// variableShapeBatches reports training whose batches change shape from
// step to step: sequences padded to each batch's longest by a collate
// function of the loaders, torchtext's BucketIterator, or one sample per
// step (trainsOneSampleAtATime). The
// benchmark times every new shape first: a Tacotron fed by such a
// collate_fn would re-time its convolutions nearly every batch (blind
// sample XX judged OPT003 false there; a short run with a few batch sizes
// ran 0.09× with it).
func variableShapeBatches(p *Pass) bool {
	if p.File.Spells("BucketIterator") || p.Model.ImportsProjectModule(func(mod *rewrite.ProjectDef) bool {
		// torchtext's buckets built in the project's data module
		// (BiDAF's model/data.py: blind sample TT).
		fm := p.Model.ModuleOf(mod)
		return fm != nil && fm.File.Spells("BucketIterator")
	}) {
		return true
	}
	for _, gl := range gpuLoaders(p) {
		if m, def := collateFunction(p, gl.Call); def != nil && padsToLongest(m, def) {
			return true
		}
	}
	if len(gpuLoaders(p)) == 0 && p.Model.ImportsProjectModule(func(mod *rewrite.ProjectDef) bool {
		// The loaders built in the project's data module and returned
		// (`train_loader, eval_loader = get_crohme_dataset(params)`,
		// blind sample S38S's CAN): the padding collate is theirs.
		fm := p.Model.ModuleOf(mod)
		if fm == nil || !fm.File.Spells("collate_fn") {
			return false
		}
		for _, c := range fm.File.OfType("call") {
			if strings.HasSuffix(fm.CalleeName(c), "DataLoader") {
				if cm, def := collateFunctionOf(fm, c); def != nil && padsToLongest(cm, def) {
					return true
				}
			}
		}
		return false
	}) {
		return true
	}
	return trainsOneSampleAtATime(p)
}

// trainsOneSampleAtATime reports training whose every loader that feeds a
// training loop says batch_size=1: samples that cannot be stacked, as a
// rule (whole images of their own size, scenes of a varying number of
// pedestrians), so the inputs change shape from step to step (blind
// samples S27B's Social-STGCNN and S27A's CSRNet).
func trainsOneSampleAtATime(p *Pass) bool {
	any := false
	for _, gl := range gpuLoaders(p) {
		if gl.Binding == nil {
			continue
		}
		_, _, loops := loaderFeeds(p, gl.Binding)
		trains := false
		for _, loop := range loops {
			trains = trains || p.Model.Loop(loop).Trains()
		}
		if !trains {
			continue
		}
		if !batchOfOne(p, gl) {
			return false
		}
		any = true
	}
	return any
}

// collateFunction returns the function a DataLoader call's collate_fn
// names, with the model of its module: a def of this file or of a project
// module it imports, also through a variable, functools.partial or a
// lambda that calls it.
func collateFunction(p *Pass, call *rewrite.Node) (*rewrite.Model, *rewrite.Node) {
	return collateFunctionOf(p.Model, call)
}

// collateFunctionOf is collateFunction for a DataLoader call of module m.
func collateFunctionOf(m *rewrite.Model, call *rewrite.Node) (*rewrite.Model, *rewrite.Node) {
	v := rewrite.KeywordValue(call, "collate_fn")
	for range 3 {
		switch {
		case v == nil:
			return nil, nil
		case v.Type == "call" && strings.HasSuffix(m.CalleeName(v), "partial"):
			v = rewrite.Arg(v, 0, "func")
			continue
		case v.Type == "subscript":
			// `collate_fn_dict[params['collate_fn']]` over a dict of one
			// entry (blind sample S38S's CAN): that entry.
			d := v.ChildByField("value")
			if d != nil && d.Type == "identifier" {
				d = m.ValueOf(d)
			}
			if d == nil || d.Type != "dictionary" || len(d.NamedChildren()) != 1 || d.NamedChildren()[0].Type != "pair" {
				return nil, nil
			}
			v = d.NamedChildren()[0].ChildByField("value")
			continue
		case v.Type == "lambda":
			body := v.ChildByField("body")
			if body == nil || body.Type != "call" {
				return nil, nil
			}
			v = body.ChildByField("function")
			continue
		case v.Type != "identifier":
			return nil, nil
		}
		if b := m.Binding(v); b != nil && b.Kind == rewrite.DefBinding {
			return m, b.Stmt
		}
		if d := m.ImportedDef(v); d != nil && !d.Class {
			return m.DefinitionOf(d)
		}
		if val := m.ValueOf(v); val != nil {
			v = val
			continue
		}
		return nil, nil
	}
	return nil, nil
}

// padsToLongest reports a collate function that sizes its batch by the
// longest of its items (max() over their lengths or shapes, or
// pad_sequence) and stacks nothing it did not pad. A captioning
// collate_fn pads the captions but stacks the images as they come: the
// convolutions see fixed shapes there, and OPT003 keeps its hint
// (yunjey/pytorch-tutorial's image_captioning, a recall label).
func padsToLongest(m *rewrite.Model, def *rewrite.Node) bool {
	calls := m.File.OfTypeIn(def, "call")
	for _, c := range calls {
		if !strings.HasSuffix(m.CalleeName(c), "stack") {
			continue
		}
		a := rewrite.Arg(c, 0, "")
		if a == nil {
			continue
		}
		texts := []string{a.Text()}
		if a.Type == "identifier" {
			texts = nil
			for _, o := range m.Origins(a) {
				if o.Expr != nil {
					texts = append(texts, o.Expr.Text())
				}
			}
		}
		// Any of the name's values padded (`chars = [pad1d(x, longest)
		// ...]`, then `chars = np.stack(chars)`).
		if !slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(strings.ToLower(t), "pad") }) {
			return false
		}
	}
	// A batch buffer sized by names the function reads from its items'
	// shapes (`max_height = item[0].shape[1] if ... > max_height else
	// max_height`, then `torch.zeros((n, c, max_height, max_width))`:
	// blind sample S38S's CAN) takes the batch's largest item.
	shaped := map[string]bool{}
	for _, asg := range m.File.OfTypeIn(def, "assignment") {
		l, r := asg.ChildByField("left"), asg.ChildByField("right")
		if l != nil && r != nil && l.Type == "identifier" && (strings.Contains(r.Text(), ".shape") || strings.Contains(r.Text(), ".size(")) && mentions(r, l.Text()) {
			shaped[l.Text()] = true // a running maximum: the name reads itself
		}
	}
	for _, c := range calls {
		switch m.CalleeName(c) {
		case "torch.zeros", "torch.ones", "torch.full", "torch.empty":
			for name := range shaped {
				if mentions(c.ChildByField("arguments"), name) {
					return true
				}
			}
		}
	}
	for _, c := range calls {
		fn := c.ChildByField("function")
		switch {
		case fn.Type == "identifier" && fn.Text() == "max":
			t := c.ChildByField("arguments").Text()
			if a := rewrite.Arg(c, 0, ""); a != nil && a.Type == "identifier" {
				if v := m.ValueOf(a); v != nil {
					t = v.Text() // `x_lens = [len(x[0]) for x in batch]`
				}
			}
			if strings.Contains(t, "len(") || strings.Contains(t, ".shape") || strings.Contains(t, ".size(") || padsBy(m, calls, c) {
				return true
			}
		case strings.HasSuffix(m.CalleeName(c), "pad_sequence"):
			return true
		}
	}
	return false
}

// padsBy reports a `longest = max(...)` whose name a pad call of the
// same function reads (`F.pad(c, (0, 0, ..., max_T - c.shape[0]))` after
// `max_T = max(input_lengths)`, the lengths read from the items: blind
// sample S38C's sign-language collate_fn).
func padsBy(m *rewrite.Model, calls []*rewrite.Node, maxCall *rewrite.Node) bool {
	asg := maxCall.Parent
	if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != maxCall || asg.ChildByField("left").Type != "identifier" {
		return false
	}
	name := asg.ChildByField("left").Text()
	for _, c := range calls {
		if q := m.CalleeName(c); (strings.HasSuffix(q, ".pad") || q == "pad") && mentions(c.ChildByField("arguments"), name) {
			return true
		}
	}
	return false
}

// cudnnSwitchedOff reports a file that assigns False (or 0) to
// torch.backends.cudnn.enabled, through any alias of the module, or that
// imports a project module doing so at its top level.
func cudnnSwitchedOff(p *Pass) bool {
	if !p.File.Spells("enabled") {
		return importedModuleDisablesCudnn(p)
	}
	for _, id := range p.File.Identifiers("enabled") {
		attr := id.Parent
		if id.Field != "attribute" || attr == nil || attr.Type != "attribute" || p.Model.QualifiedName(attr) != "torch.backends.cudnn.enabled" {
			continue
		}
		if a := attr.Parent; a != nil && a.Type == "assignment" && a.ChildByField("left") == attr {
			if v := a.ChildByField("right"); v != nil && (v.Text() == "False" || v.Text() == "0") {
				return true
			}
		}
	}
	return false
}

// cudnnOffAtTopLevel matches a module-level `torch.backends.cudnn.enabled
// = False` (or `cudnn.enabled = False`).
var cudnnOffAtTopLevel = regexp.MustCompile(`(?m)^(?:torch\.backends\.)?cudnn\.enabled\s*=\s*(?:False|0)\b`)

// importedModuleDisablesCudnn reports a project module this file imports
// that switches cuDNN off when imported (blind sample S34Y's
// crnn-pytorch: evaluate.py sets `torch.backends.cudnn.enabled = False`
// at import, and train.py imports it, so benchmark mode has nothing to
// choose in the training run).
func importedModuleDisablesCudnn(p *Pass) bool {
	if !p.Model.ImportedModuleSpells("enabled") {
		return false
	}
	for _, src := range p.Model.ProjectSourcesSpelling("enabled")[1:] {
		if cudnnOffAtTopLevel.Match(src) {
			return true
		}
	}
	return false
}

// frozenAside reports a network built by call and kept under a name that
// no optimizer of the file steps, that the file never calls (no forward
// here) and that is put in eval mode: a frozen encoder handed to a
// dataset or another module (blind sample S37E's deepfake classifier,
// whose convolutional autoencoder encodes faces inside the Dataset, its
// outputs cached to disk, while the loop trains a transformer). Its
// convolutions are not the training step's.
func frozenAside(p *Pass, call *rewrite.Node) bool {
	name := assignedThroughMoves(call)
	if name == nil || name.Type != "identifier" {
		return false
	}
	optimized, known := optimizedModels(p)
	if !known || optimized[name.Text()] || feedsOptimized(p, name, optimized) {
		return false
	}
	evaluated := false
	for _, id := range p.File.Identifiers(name.Text()) {
		if id == name {
			continue
		}
		parent := id.Parent
		if parent != nil && parent.Type == "call" && parent.ChildByField("function") == id {
			return false // its forward runs in this file
		}
		if parent != nil && parent.Type == "attribute" && parent.ChildByField("object") == id && parent.Parent != nil && parent.Parent.Type == "call" {
			switch parent.ChildByField("attribute").Text() {
			case "eval":
				evaluated = true
			case "train", "forward":
				return false
			}
		}
	}
	return evaluated
}

// derivesDataset reports a project class derived from a Dataset: the
// convolutions it builds (a face detector cropping each video's frames,
// blind sample S37E's MTCNN) run while loading samples, not in the
// training step.
func derivesDataset(d *rewrite.ProjectDef) bool {
	return slices.ContainsFunc(d.Bases, func(b string) bool { return strings.HasSuffix(b, "Dataset") })
}

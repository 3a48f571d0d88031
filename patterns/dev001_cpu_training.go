package patterns

import (
	"bytes"
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CPUTraining is DEV001.
var CPUTraining = &Rule{
	Code:      "DEV001",
	Name:      "training-on-cpu",
	Title:     "Move the model and its batches to the GPU: this script trains on the CPU",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"backward", "step"}, // TrainingLoops needs a loop calling .backward() or <optimizer>.step()
	Check:     checkCPUTraining,
}

func init() { Register(CPUTraining) }

func checkCPUTraining(p *Pass) {
	report := cpuTrainingLoop(p)
	if report == nil {
		checkAppleOnlyDevice(p)
		return
	}
	if toyNetwork(p, []*rewrite.Node{report}) || selfTest(p, report) {
		// A toy network (a tutorial's 2-unit embedding, a 1-in 1-out
		// regression) steps as fast on the CPU as on a GPU: nothing to
		// move. The script still counts as CPU training for the others.
		return
	}
	src := p.File.Src
	end := min(src.LineEnd(src.LineOf(report.Start)), report.End)
	p.ReportRange(report.Start, end, "this script trains on the CPU: the model and its batches never reach a CUDA device",
		cpuTrainingFix(p))
}

// checkAppleOnlyDevice reports a training script whose device choice
// names Apple's MPS and the CPU and never CUDA (`torch.device('mps' if
// torch.backends.mps.is_available() else 'cpu')`): on an NVIDIA GPU it
// trains on the CPU (blind sample S39S's malaria cell detector). The code
// action puts CUDA first in the choice.
func checkAppleOnlyDevice(p *Pass) {
	if !p.File.Spells("mps") || namesCUDA(p) || p.Model.StarImport || placingFramework(p) {
		return
	}
	var choice *rewrite.Node
	for _, call := range p.Model.CallsTo("torch.device") {
		arg := rewrite.Arg(call, 0, "type")
		if arg == nil || arg.Type != "conditional_expression" || !strings.Contains(arg.Text(), "mps") || !literalChoice(arg) {
			continue // (`args.device if args.device else ...`: the user may choose CUDA)
		}
		choice = arg
		break
	}
	if choice == nil {
		return
	}
	trains := false
	for _, loop := range p.Model.TrainingLoops() {
		if callsModel(p, loop) {
			trains = true
			break
		}
	}
	if !trains {
		return
	}
	torchName, ok := p.Model.LocalName(choice, "torch.cuda.is_available")
	if !ok {
		return
	}
	fix := Fix(rewrite.Hint, "Choose CUDA first", rewrite.Edit{Start: choice.Start, End: choice.End, New: `"cuda" if ` + torchName + `() else ` + choice.Text()})
	p.Report(choice, "this script chooses Apple's MPS or the CPU and never CUDA: on an NVIDIA GPU it trains on the CPU; put CUDA first in the choice", fix)
}

// literalChoice reports a conditional expression whose every outcome is
// a string literal (`'mps' if ... else 'cpu'`, nested choices too).
func literalChoice(e *rewrite.Node) bool {
	switch e.Type {
	case "string":
		return true
	case "parenthesized_expression":
		return len(e.NamedChildren()) == 1 && literalChoice(e.NamedChildren()[0])
	case "conditional_expression":
		parts := e.NamedChildren() // value, condition, alternative
		return len(parts) == 3 && literalChoice(parts[0]) && literalChoice(parts[2])
	}
	return false
}

// namesCUDA reports code that names CUDA anywhere: an identifier
// (`torch.cuda`, `use_cuda`) or a string other than a docstring.
func namesCUDA(p *Pass) bool {
	if !bytes.Contains(bytes.ToLower(p.File.Src.Bytes), []byte("cuda")) {
		return false
	}
	for _, id := range p.File.OfType("identifier") {
		if strings.Contains(strings.ToLower(id.Text()), "cuda") {
			return true
		}
	}
	for _, str := range p.File.OfType("string") {
		if strings.Contains(strings.ToLower(str.Text()), "cuda") && (str.Parent == nil || str.Parent.Type != "expression_statement") {
			return true
		}
	}
	return false
}

// trainsOnCPU reports a script DEV001 reports: it trains a model and
// places nothing on any device.
func trainsOnCPU(p *Pass) bool {
	return importsAny(p.Model, CPUTraining.Libraries) && p.File.SpellsAny(CPUTraining.Names) && cpuTrainingLoop(p) != nil
}

// cpuTrainingLoop returns the training loop DEV001 reports, or nil when
// the file places something on a device (or lets a framework do it).
func cpuTrainingLoop(p *Pass) *rewrite.Node {
	return p.Memo("dev001.loop", func() any { return findCPUTrainingLoop(p) }).(*rewrite.Node)
}

func findCPUTrainingLoop(p *Pass) *rewrite.Node {
	if p.Model.StarImport || placingFramework(p) || devicePlaced(p) {
		return nil
	}
	var report *rewrite.Node
	for _, loop := range p.Model.TrainingLoops() {
		if !callsModel(p, loop) {
			continue
		}
		if _, ok := batchLoopOf(p, loop); ok {
			report = loop
			break
		}
		if report == nil || report.Contains(loop) {
			report = loop
		}
	}
	return report
}

// callsModel reports a direct call of a recognised model in the loop body.
func callsModel(p *Pass, loop *rewrite.Node) bool {
	found := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if fn := n.ChildByField("function"); n.Type == "call" && isModel(p, fn) && !lossModule(p, fn) {
			found = true
		}
	})
	return found
}

// lossModule reports a name bound only to torch.nn losses
// (`criterion = nn.CrossEntropyLoss()`): a module with no parameters,
// which says nothing of where the trained model lives (blind sample
// S33AI's ADDA, whose encoders arrive as parameters already on the GPU
// and whose loss alone made the loop look like CPU training).
func lossModule(p *Pass, fn *rewrite.Node) bool {
	bs := p.Model.Bindings(fn)
	for _, b := range bs {
		if b.Value == nil || b.Value.Type != "call" {
			return false
		}
		if q := p.Model.CalleeName(b.Value); !strings.HasPrefix(q, "torch.nn.") || !strings.HasSuffix(q, "Loss") {
			return false
		}
	}
	return len(bs) > 0
}

// deviceKeywords are keyword arguments that choose a device.
var deviceKeywords = map[string]bool{"device": true, "device_map": true, "device_ids": true, "devices": true,
	"output_device": true, "accelerator": true, "gpus": true, "map_location": true, "device_type": true}

// devicePlaced reports any device placement in the file: a move method
// call (`.to(...)` other than a dtype conversion, `.cuda()` ...), a device
// keyword argument, a default-device switch, or a torch.device that is not
// CUDA.
func devicePlaced(p *Pass) bool {
	for _, call := range torchCalls(p) {
		attr := callAttr(call)
		switch {
		case attr == "to":
			if !dtypeConversion(p, call) && p.Model.MoveKind(call) != rewrite.DeviceOther {
				return true // (`.to(DEVICE)` with DEVICE = "cpu" places on the host)
			}
		case attr != "" && attr != "cpu" && moveMethods[attr], attr == "to_empty":
			return true
		}
		switch q := p.Model.CalleeName(call); q {
		case "torch.set_default_device", "torch.set_default_tensor_type", "torch.cuda.set_device":
			return true
		case "torch.device":
			if k := p.Model.DeviceOf(call); k != rewrite.DeviceCUDA && k != rewrite.DeviceMaybeCUDA {
				return true
			}
		}
	}
	for _, kw := range p.File.OfType("keyword_argument") {
		if k := kw.ChildByField("name"); k != nil && deviceKeywords[k.Text()] {
			return true
		}
	}
	return false
}

// torchDtypes are the dtype names `.to(torch.<dtype>)` converts to.
var torchDtypes = map[string]bool{"float": true, "float32": true, "float16": true, "half": true, "bfloat16": true,
	"float64": true, "double": true, "int64": true, "long": true, "int32": true, "int": true, "int16": true,
	"short": true, "int8": true, "uint8": true, "bool": true, "complex64": true, "complex128": true,
	"cfloat": true, "cdouble": true}

// dtypeConversion reports `.to(torch.float16)`, `.to(x.dtype)`,
// `.to(dtype=...)`: a `.to` that cannot change the device.
func dtypeConversion(p *Pass, call *rewrite.Node) bool {
	args := call.ChildByField("arguments")
	if args == nil || rewrite.HasSplat(call) {
		return false
	}
	for _, a := range args.NamedChildren() {
		if a.Type == "keyword_argument" {
			name := a.ChildByField("name")
			if name == nil {
				return false
			}
			switch name.Text() {
			case "dtype", "copy", "memory_format":
				continue
			}
			return false
		}
		q := p.Model.QualifiedName(a)
		switch {
		case strings.HasPrefix(q, "torch.") && torchDtypes[strings.TrimPrefix(q, "torch.")]:
		case a.Type == "attribute" && a.ChildByField("attribute").Text() == "dtype":
		default:
			return false
		}
	}
	return true
}

// cpuTrainingFix builds the code action that moves every model and the
// batches of every loop calling one to a CUDA device; nil when gpuopt
// cannot see that every tensor meeting the model would follow.
func cpuTrainingFix(p *Pass) *rewrite.Fix {
	if len(p.File.MethodCalls("numpy")) > 0 {
		return nil
	}
	models, loops, ok := modelsAndLoops(p)
	if !ok || len(models) == 0 || len(loops) == 0 {
		return nil
	}
	var sites []*rewrite.Node
	for _, b := range models {
		sites = append(sites, rewrite.Statement(b.Stmt))
	}
	for _, bl := range loops {
		sites = append(sites, bl.Loop)
	}
	dev, devEdit, ok := deviceName(p, sites)
	if !ok {
		return nil
	}
	var edits []rewrite.Edit
	if devEdit != nil {
		edits = append(edits, *devEdit)
	}
	for _, b := range models {
		e, ok := rewrite.InsertAfterEdit(rewrite.Statement(b.Stmt), b.Name+".to("+dev+")")
		if !ok {
			return nil
		}
		edits = append(edits, e)
	}
	for _, bl := range loops {
		var names []string
		for _, t := range bl.Targets {
			tensor := false
			for _, r := range bodyReads(p, bl.Loop, t) {
				switch classifyBatchUse(p, r, len(bl.Targets) == 1) {
				case useTensor:
					tensor = true
				case useMove, useOpaque, useStructured:
					return nil
				}
			}
			if tensor {
				names = append(names, t.Text())
			}
		}
		body := rewrite.Statements(rewrite.LoopBody(bl.Loop))
		if len(names) == 0 || len(body) == 0 {
			return nil
		}
		e, ok := rewrite.InsertBeforeEdit(body[0], moveStatement(names, "to("+dev+")"))
		if !ok {
			return nil
		}
		edits = append(edits, e)
	}
	return Fix(rewrite.Hint, "Train on the GPU: pick a device, move the model and the batches", edits...)
}

// modelMethods are the model uses that pass no tensor to it.
var modelMethods = map[string]bool{"parameters": true, "named_parameters": true, "train": true, "eval": true,
	"state_dict": true, "load_state_dict": true, "zero_grad": true, "modules": true, "named_modules": true,
	"children": true, "named_children": true, "buffers": true, "named_buffers": true, "requires_grad_": true}

// modelsAndLoops returns the models to move (bindings assigned once, by a
// statement of their own) and the DataLoader loops whose batches must
// follow them. ok is false when a model is used in a way the move could
// break.
func modelsAndLoops(p *Pass) (models []*rewrite.Binding, loops []batchLoop, ok bool) {
	seenModel := map[*rewrite.Binding]bool{}
	seenLoop := map[*rewrite.Node]bool{}
	for _, call := range torchCalls(p) {
		fn := call.ChildByField("function")
		if !isModel(p, fn) {
			continue
		}
		b := p.Model.Binding(fn)
		if b == nil || seenModel[b] {
			continue
		}
		seenModel[b] = true
		if tensorFreeLoss(p, b.Value) {
			continue
		}
		if st := rewrite.Statement(b.Stmt); st == nil || st.Type != "expression_statement" || b.Stmt.Parent != st {
			return nil, nil, false
		}
		models = append(models, b)
		for _, use := range b.Uses {
			switch {
			case use.Parent.Type == "call" && use.Parent.ChildByField("function") == use:
				bl, ok := enclosingBatchLoop(p, use)
				if !ok {
					return nil, nil, false
				}
				if !seenLoop[bl.Loop] {
					seenLoop[bl.Loop] = true
					loops = append(loops, bl)
				}
			case use.Parent.Type == "attribute" && use.Parent.ChildByField("object") == use &&
				modelMethods[use.Parent.ChildByField("attribute").Text()]:
			default:
				if c := argumentOf(use); c == nil || !harmlessCalls[p.Model.CalleeName(c)] && p.Model.CalleeName(c) != "torch.save" {
					return nil, nil, false
				}
			}
		}
	}
	for _, bl := range loops {
		if !loopTensorsFollow(p, bl.Loop) {
			return nil, nil, false
		}
	}
	return models, loops, true
}

// tensorFreeLoss reports a torch.nn loss built with literal arguments only
// (`nn.CrossEntropyLoss(label_smoothing=0.1)`): it holds no tensor, so it
// works on any device unmoved.
func tensorFreeLoss(p *Pass, v *rewrite.Node) bool {
	q := p.Model.CalleeName(v)
	if !strings.HasPrefix(q, "torch.nn.") || !strings.HasSuffix(q, "Loss") {
		return false
	}
	args := v.ChildByField("arguments")
	if args == nil {
		return false
	}
	for _, a := range args.NamedChildren() {
		if a.Type == "keyword_argument" {
			a = a.ChildByField("value")
		}
		if !a.Is("integer", "float", "string", "true", "false", "none") {
			return false
		}
	}
	return true
}

// enclosingBatchLoop returns the innermost DataLoader loop around n.
func enclosingBatchLoop(p *Pass, n *rewrite.Node) (batchLoop, bool) {
	for _, l := range p.Model.EnclosingLoops(n) {
		if bl, ok := batchLoopOf(p, l); ok {
			return bl, true
		}
	}
	return batchLoop{}, false
}

// loopTensorsFollow reports that the loop body creates no tensor without
// device= and reads no tensor built outside the loop: once the batches
// move, nothing else in the loop is left on the CPU.
func loopTensorsFollow(p *Pass, loop *rewrite.Node) bool {
	ok := true
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if !ok {
			return
		}
		switch n.Type {
		case "call":
			q := p.Model.CalleeName(n)
			if strings.HasPrefix(q, "torch.") && !strings.HasSuffix(q, "_like") && p.Model.IsTensorExpr(n) &&
				rewrite.KeywordArg(n, "device") == nil && !tensorOperation(q) {
				ok = false
			}
		case "identifier":
			if !p.Model.IsRead(n) {
				return
			}
			for _, b := range p.Model.Bindings(n) {
				if !loop.Contains(b.Ident) && b.Kind == rewrite.AssignBinding && b.Value != nil &&
					p.Model.IsTensorExpr(b.Value) && !isModel(p, n) {
					ok = false
				}
			}
		}
	})
	return ok
}

// tensorOperation reports torch functions that compute on their tensor
// arguments (and so follow their device) rather than create tensors.
func tensorOperation(q string) bool {
	switch q {
	case "torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.zeros", "torch.ones", "torch.empty",
		"torch.full", "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.arange",
		"torch.linspace", "torch.logspace", "torch.eye", "torch.Tensor", "torch.FloatTensor",
		"torch.LongTensor", "torch.IntTensor", "torch.BoolTensor", "torch.load", "torch.normal":
		return false
	}
	return true
}

// deviceName returns the name the action writes for the device, and the
// statement that defines it (nil when an existing `device = torch.device(
// "cuda" ...)` of the module is reused). sites are where the name is read.
func deviceName(p *Pass, sites []*rewrite.Node) (string, *rewrite.Edit, bool) {
	m := p.Model
	if bs := m.Module.Bindings["device"]; len(bs) == 1 && bs[0].Kind == rewrite.AssignBinding {
		b := bs[0]
		if k := m.DeviceOf(b.Ident); k == rewrite.DeviceCUDA || k == rewrite.DeviceMaybeCUDA {
			for _, s := range sites {
				at := m.BindingsAt(s, "device")
				if len(at) != 1 || at[0] != b || m.ScopeOf(s) == m.Module && s.Start < b.Stmt.End {
					return "", nil, false
				}
			}
			return "device", nil, true
		}
	}
	name := ""
	for _, n := range []string{"device", "torch_device", "train_device", "compute_device"} {
		if m.NameFree(n) {
			name = n
			break
		}
	}
	torchDevice, ok1 := m.SpellAtModule("torch.device")
	available, ok2 := m.SpellAtModule("torch.cuda.is_available")
	if name == "" || !ok1 || !ok2 {
		return "", nil, false
	}
	q := func(s string) string { return rewrite.QuoteLike(firstString(p), s) }
	e := m.InsertAfterImports(name + " = " + torchDevice + "(" + q("cuda") + " if " + available + "() else " + q("cpu") + ")")
	for _, s := range sites {
		if m.ScopeOf(s) == m.Module && s.Start < e.Start {
			return "", nil, false
		}
	}
	return name, &e, true
}

// firstString returns the file's first one-line string literal (its quote
// style is the one inserted strings follow), or nil.
func firstString(p *Pass) *rewrite.Node {
	for _, s := range p.File.OfType("string") {
		if !strings.Contains(s.Text(), `"""`) && !strings.Contains(s.Text(), `'''`) {
			return s
		}
	}
	return nil
}

// selfTest reports a loop under the `__main__` guard of a module that
// other modules of the project import: the library's self-test
// (AWD-LSTM's splitcross.py trains a vocabulary of 8 on the CPU to check
// its softmax), not the project's training (blind sample FF).
func selfTest(p *Pass, loop *rewrite.Node) bool {
	return underMainGuard(loop) && importedByProject(p)
}

// moduleSelfTest reports code under the `__main__` guard of a module
// that is a library of the project: other modules import it (selfTest),
// or it defines classes and its `__main__` block trains nothing (a pooling
// layer's module checking its output shape on random CUDA tensors:
// blind sample SS). Such code runs once, by hand.
func moduleSelfTest(p *Pass, n *rewrite.Node) bool {
	if !underMainGuard(n) {
		return false
	}
	if importedByProject(p) {
		return true
	}
	var guard *rewrite.Node
	for a := n.Ancestor("if_statement"); a != nil; a = a.Ancestor("if_statement") {
		if isMainGuard(a) {
			guard = a
		}
	}
	if guard == nil || !slices.ContainsFunc(p.File.Root.NamedChildren(), func(st *rewrite.Node) bool {
		return st.Type == "class_definition" || st.Type == "decorated_definition" && st.ChildByField("definition").Type == "class_definition"
	}) {
		return false
	}
	return !guardTrains(p, guard)
}

// librarySelfTest reports code under the `__main__` guard of a module
// that other modules of the project import, where that block trains
// nothing: a library's self-test (an encoder module pushing a few
// MovingMNIST batches through itself: blind sample S22F), which runs
// once, by hand. The engine drops every finding there.
func librarySelfTest(p *Pass, n *rewrite.Node) bool {
	if !underMainGuard(n) || !importedByProject(p) {
		return false
	}
	for a := n.Ancestor("if_statement"); a != nil; a = a.Ancestor("if_statement") {
		if isMainGuard(a) {
			return !guardTrains(p, a)
		}
	}
	return false
}

// guardTrains reports a `__main__` block that may train: it calls
// `.backward()`, `.step()` or `.fit()`, or a function of the module
// (perhaps the training).
func guardTrains(p *Pass, guard *rewrite.Node) bool {
	trains := false
	guard.Walk(func(c *rewrite.Node) bool {
		if c.Type == "call" {
			if fn := c.ChildByField("function"); fn.Type == "attribute" && fn.ChildByField("attribute").Is("identifier") {
				switch fn.ChildByField("attribute").Text() {
				case "backward", "step", "fit":
					trains = true
				}
			}
			if d := p.Model.CalledDef(c); d != nil && d.Type == "function_definition" && d.Parent != nil && d.Parent.Type == "module" {
				trains = true // a function of the module: perhaps the training
			}
		}
		return !trains
	})
	return trains
}

// importedByProject reports a module that other modules of the project
// import one of its top-level functions or classes from.
func importedByProject(p *Pass) bool {
	for _, st := range p.File.Root.NamedChildren() {
		def := st
		if def.Type == "decorated_definition" {
			def = def.ChildByField("definition")
		}
		if def != nil && def.Type == "class_definition" {
			def = rewrite.MethodOf(def, "__init__") // other modules import the class
		}
		if def != nil && def.Type == "function_definition" && p.Model.MayHaveForeignCallSites(def) {
			return true
		}
	}
	return false
}

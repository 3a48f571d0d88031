package rewrite

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// DeviceKind classifies a device expression.
type DeviceKind int

// What a device expression is known to be.
const (
	// DeviceUnknown: not recognisably a device (or not known which).
	DeviceUnknown DeviceKind = iota
	// DeviceCUDA: certainly a CUDA device ("cuda", "cuda:1", torch.device("cuda"), 0).
	DeviceCUDA
	// DeviceMaybeCUDA: CUDA when available, else another device
	// (`"cuda" if torch.cuda.is_available() else "cpu"`).
	DeviceMaybeCUDA
	// DeviceOther: a device that is not CUDA ("cpu", "mps").
	DeviceOther
	// DeviceSomething: a device whose kind is unknown (a parameter named
	// `device`, `tensor.device`).
	DeviceSomething
)

// IsDevice reports whether k names a device at all.
func (k DeviceKind) IsDevice() bool { return k != DeviceUnknown }

// DeviceOf classifies expr as a device expression: string literals,
// torch.device(...), integers (CUDA ordinals), `x.device`, conditionals,
// names assigned once from one of these, and parameters named like a device
// (`device`, `dev`, `*_device`: DeviceSomething).
func (m *Model) DeviceOf(expr *Node) DeviceKind { return m.deviceOf(expr, 0) }

func (m *Model) deviceOf(expr *Node, depth int) DeviceKind {
	if expr == nil || depth > 6 {
		return DeviceUnknown
	}
	switch expr.Type {
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			return m.deviceOf(c[0], depth+1)
		}
	case "string":
		s, ok := StringValue(expr)
		if !ok {
			return formattedDevice(expr)
		}
		return deviceString(s)
	case "binary_operator":
		// "cuda:%d" % gpu_id
		if op := expr.ChildByField("operator"); op != nil && op.Text() == "%" {
			return formattedDevice(expr.ChildByField("left"))
		}
	case "integer":
		if _, err := strconv.Atoi(expr.Text()); err == nil {
			return DeviceCUDA
		}
	case "call":
		// "cuda:{}".format(gpu_ids[0])
		if fn := expr.ChildByField("function"); fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "format" {
			if k := formattedDevice(fn.ChildByField("object")); k != DeviceUnknown {
				return k
			}
		}
		switch m.CalleeName(expr) {
		case "torch.device":
			if HasSplat(expr) {
				return DeviceUnknown
			}
			a := Arg(expr, 0, "type")
			k := m.deviceOf(a, depth+1)
			if k == DeviceUnknown && a != nil && a.Type == "identifier" {
				return DeviceSomething
			}
			return k
		case "torch.cuda.current_device":
			return DeviceCUDA
		case "torch.accelerator.current_accelerator":
			// The accelerator when there is one (CUDA on an NVIDIA machine).
			return DeviceMaybeCUDA
		}
		// A device helper of this file or of a project module
		// (`self._device = validate_and_set_device(enable_gpu, cuda)`:
		// blind sample S29H's CTGAN): what its returns are.
		if depth < 4 {
			if k := m.returnedDevice(expr, depth); k != DeviceUnknown {
				return k
			}
		}
	case "attribute":
		if expr.ChildByField("attribute").Text() == "device" {
			// accelerator.device of HF Accelerate: the GPU when there is one.
			if obj := expr.ChildByField("object"); obj != nil && strings.HasPrefix(m.constructor(obj), "accelerate.") {
				return DeviceMaybeCUDA
			}
			// self.device set by a base class of another module (an
			// image-translation project's BaseModel: `self.device =
			// torch.device("cuda:{}".format(...)) if self.gpu_ids else
			// torch.device("cpu")`, blind sample S34AT).
			if k := m.inheritedDevice(expr, depth); k != DeviceUnknown {
				return k
			}
			// `self.conf.device`, set by a config module of the project
			// (`conf.device = "cuda:{}".format(...) if
			// torch.cuda.is_available() else "cpu"`: blind sample S35C's
			// anti-spoofing trainers).
			if k := m.configDeviceOf(expr, depth); k != DeviceUnknown {
				return k
			}
			return DeviceSomething
		}
		// config.DEVICE after `import config` of a project module.
		if d := m.moduleAttrDef(expr); d != nil && d.Var && d.Device != DeviceUnknown {
			return d.Device
		}
		if vals := m.SelfAttrValues(expr); len(vals) > 0 {
			if k := m.combineDevices(vals, depth); k != DeviceUnknown {
				return k
			}
			// `self.gpu_id = int(os.environ["LOCAL_RANK"])`: named for
			// the device it holds.
		} else if k := m.inheritedDevice(expr, depth); k != DeviceUnknown {
			return k
		}
		if deviceLikeName(expr.ChildByField("attribute").Text()) {
			if k := m.configDeviceOf(expr, depth); k != DeviceUnknown {
				return k // `self.opt.data_device`
			}
			return DeviceSomething
		}
	case "subscript":
		// gpu_ids[0]: a GPU ordinal from a list of them.
		if idx := expr.ChildByField("subscript"); idx != nil && idx.Type == "integer" && gpuListName(expr.ChildByField("value")) {
			return DeviceCUDA
		}
		// CONFIG["device"] of a config dict gpuopt reads.
		if key, ok := StringValue(expr.ChildByField("subscript")); ok && deviceLikeName(key) {
			entries, _ := m.DictEntries(expr.ChildByField("value"), expr)
			for _, e := range entries {
				if e.Key == key && !e.Maybe {
					return m.deviceOf(e.Value, depth+1)
				}
			}
			return DeviceSomething
		}
	case "conditional_expression":
		c := expr.NamedChildren()
		if len(c) != 3 {
			return DeviceUnknown
		}
		a, b := m.deviceOf(c[0], depth+1), m.deviceOf(c[2], depth+1)
		if a == DeviceUnknown || b == DeviceUnknown {
			return DeviceUnknown
		}
		return joinDevices(a, b)
	case "identifier":
		bs := m.Bindings(expr)
		if len(bs) == 0 || len(bs) == 1 && bs[0].Kind == ImportBinding {
			// `from config import DEVICE` / `from config import *` of a
			// project module: what its constant names.
			if d := m.importedDef(expr); d != nil && d.Var && d.Device != DeviceUnknown {
				return d.Device
			}
		}
		if len(bs) == 1 && bs[0].Kind == AssignBinding && bs[0].Value != nil {
			return m.deviceOf(bs[0].Value, depth+1)
		}
		if len(bs) > 1 {
			// `if use_accel: device = ... else: device = torch.device("cpu")`
			var vals []*Node
			param := false
			for _, b := range bs {
				if b.Kind == ParamBinding && depth > 0 {
					// A helper's `device=None` parameter beside the
					// values it picks itself (CTGAN's _set_device): a
					// device the caller may name.
					param = true
					continue
				}
				if b.Kind != AssignBinding || b.Value == nil {
					return DeviceUnknown
				}
				vals = append(vals, b.Value)
			}
			k := m.combineDevices(vals, depth)
			if param && k != DeviceUnknown {
				k = joinDevices(k, DeviceSomething)
			}
			return k
		}
		if len(bs) == 1 && bs[0].Kind == ParamBinding && depth < 4 {
			// What the call sites pass (`Trainer(model, loader, device)`
			// with `device = 0`).
			// A module-level function that no call here passes the
			// parameter takes the arguments of its call sites in the
			// project's other modules (`engine.train_fn(..., device)` in
			// train.py), each read in its own module.
			if k := m.paramDevice(expr, depth); k != DeviceUnknown {
				return k
			}
		}
		if len(bs) == 1 && (bs[0].Kind == ParamBinding || bs[0].Kind == ImportBinding) && deviceLikeName(expr.Text()) {
			return DeviceSomething // a `device` parameter, `from config import DEVICE`
		}
	}
	return DeviceUnknown
}

// paramDevice is the kind of device a parameter receives: the join of
// what every call site passes (OriginsAcross: call sites in other modules
// of the project count too, read in their module), DeviceUnknown when a
// call site passes something unknown or none is found.
func (m *Model) paramDevice(param *Node, depth int) DeviceKind {
	var j deviceJoin
	for _, o := range m.OriginsAcross(param) {
		if o.Annotation {
			continue // `gpu_id: int` says nothing of the device
		}
		if o.Expr == nil {
			return DeviceUnknown
		}
		om := m
		if o.Model != nil {
			om = o.Model
		}
		vk := om.deviceOf(o.Expr, depth+3)
		if vk == DeviceUnknown {
			return DeviceUnknown
		}
		j.add(vk)
	}
	return j.k
}

// returnedDevice is the device kind every return of the function call
// runs returns (a function of this file, or one a project module defines
// and this file imports); DeviceUnknown when it is no such function or
// returns nothing gpuopt reads as a device.
func (m *Model) returnedDevice(call *Node, depth int) DeviceKind {
	fm, def := m.calledFunction(call)
	if def == nil {
		return DeviceUnknown
	}
	rets := ReturnValues(def)
	if len(rets) == 0 {
		return DeviceUnknown
	}
	return fm.combineDevices(rets, depth+1)
}

// calledFunction returns the function a call runs, with the model of its
// module: a function of this file, or one a project module defines and
// this file imports; nil, nil for anything else (a class, a library).
func (m *Model) calledFunction(call *Node) (*Model, *Node) {
	fm, def := m, m.CalledDef(call)
	if def == nil {
		fn := call.ChildByField("function")
		if fn == nil || !fn.Is("identifier", "attribute") {
			return nil, nil
		}
		d := m.ImportedDef(fn)
		if d == nil || d.Class {
			return nil, nil
		}
		fm, def = m.DefinitionOf(d)
	}
	if fm == nil || def == nil || def.Type != "function_definition" {
		return nil, nil
	}
	return fm, def
}

// combineDevices is the kind of a value that is one of vals, as a
// conditional expression combines its branches.
func (m *Model) combineDevices(vals []*Node, depth int) DeviceKind {
	k := DeviceUnknown
	for i, v := range vals {
		vk := m.deviceOf(v, depth+1)
		if vk == DeviceUnknown {
			return DeviceUnknown
		}
		if i == 0 {
			k = vk
			continue
		}
		k = joinDevices(k, vk)
	}
	return k
}

// BuilderDevice is where the module a builder function returns lives: a
// function of this file or of a project module that moves the module it
// returns (`return net.cuda()`, or `net.to(gpu_ids[0])` before `return
// net`), or returns another builder's result (`define_G(...)` returning
// `init_net(net, gpu_ids)`: the image-translation projects of blind
// sample S34AT). A move under a test of the GPU (`if len(gpu_ids) > 0:`)
// is DeviceMaybeCUDA. DeviceUnknown for any other call.
func (m *Model) BuilderDevice(call *Node) DeviceKind { return m.builderDevice(call, 0) }

func (m *Model) builderDevice(call *Node, depth int) DeviceKind {
	if call == nil || call.Type != "call" || depth > 2 {
		return DeviceUnknown
	}
	fm, def := m.calledFunction(call)
	if def == nil {
		return DeviceUnknown
	}
	var j deviceJoin
	for _, r := range ReturnValues(def) {
		rk := DeviceUnknown
		switch r.Type {
		case "call":
			if rk = fm.MoveKind(r); rk == DeviceUnknown {
				rk = fm.builderDevice(r, depth+1)
			}
		case "identifier":
			rk = fm.movedBefore(r, def)
		}
		if rk == DeviceUnknown {
			return DeviceUnknown
		}
		j.add(rk)
	}
	return j.k
}

// movedBefore is where the function def moves the module its returned
// name ret holds: the join of its moves of that name (`net.to(dev)`,
// `net = net.cuda()`) before the return, DeviceMaybeCUDA for a CUDA move
// under a test of the GPU; DeviceUnknown when it moves none, or moves it
// under any other condition.
func (m *Model) movedBefore(ret, def *Node) DeviceKind {
	var j deviceJoin
	for _, id := range m.identsIn(ret.Text(), def) {
		if id.Start >= ret.Start || m.ScopeOf(id) != m.ScopeOf(ret) {
			continue
		}
		attr := id.Parent
		if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != id || attr.Parent == nil {
			continue
		}
		call := attr.Parent
		mk := m.MoveKind(call)
		if mk == DeviceUnknown {
			continue
		}
		st := Statement(call)
		if st == nil || st.Parent == nil {
			return DeviceUnknown
		}
		if !st.Parent.Contains(ret) {
			if !OnGPUBranch(st) || mk != DeviceCUDA && mk != DeviceMaybeCUDA {
				return DeviceUnknown
			}
			mk = DeviceMaybeCUDA
		}
		j.add(mk)
	}
	return j.k
}

// configNames are the names configuration objects go by.
var configNames = map[string]bool{"conf": true, "cnf": true, "cfg": true, "config": true, "configs": true, "args": true,
	"opt": true, "opts": true, "options": true, "hparams": true, "params": true, "hp": true, "settings": true, "flags": true}

// configObject reports an expression naming a configuration object by
// its name: `conf`, `self.conf`, `self.args`.
func configObject(n *Node) bool {
	if n != nil && n.Type == "attribute" {
		n = n.ChildByField("attribute")
	}
	return n != nil && n.Type == "identifier" && configNames[strings.ToLower(n.Text())]
}

// inConfigClass reports a node inside a class named for configuration
// (`class TrainConfig:`, `class Options:`), whose `self.device` is the
// configuration's device.
func inConfigClass(n *Node) bool {
	cls := n.Ancestor("class_definition")
	if cls == nil {
		return false
	}
	name := strings.ToLower(cls.ChildByField("name").Text())
	for _, suffix := range []string{"config", "cfg", "conf", "options", "settings", "args", "hparams"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// maxConfigScan bounds the modules projectConfigDevice parses.
const maxConfigScan = 24

// configDeviceOf is DeviceMaybeCUDA for a device attribute of a
// configuration object (`self.conf.device`, `opt.data_device`) that the
// project sets to CUDA, or to CUDA when a GPU is there
// (projectConfigDevice); DeviceUnknown otherwise.
func (m *Model) configDeviceOf(attr *Node, depth int) DeviceKind {
	if depth >= 2 || !configObject(attr.ChildByField("object")) {
		return DeviceUnknown
	}
	if k := m.projectConfigDevice(attr.ChildByField("attribute").Text()); k == DeviceCUDA || k == DeviceMaybeCUDA {
		return DeviceMaybeCUDA
	}
	return DeviceUnknown
}

// projectConfigDevice is the device this file and the project's other
// modules assign to the attribute name of a configuration object
// (`conf.device = ...`, `opt.data_device = ...`, a config class's
// `self.device = ...`), joined over every such assignment; DeviceUnknown
// when there is none, one is unknown, or too many modules spell one to
// read. Asked once per file and name.
func (m *Model) projectConfigDevice(name string) DeviceKind {
	if k, ok := m.configDevices[name]; ok {
		return k
	}
	if m.configDevices == nil {
		m.configDevices = map[string]DeviceKind{}
	}
	m.configDevices[name] = DeviceUnknown // (a cycle answers unknown)
	var j deviceJoin
	known := true
	visit := func(fm *Model) {
		if !bytes.Contains(fm.File.Src.Bytes, []byte("."+name)) {
			return
		}
		for _, asg := range fm.File.OfType("assignment") {
			left := asg.ChildByField("left")
			if left == nil || left.Type != "attribute" || left.ChildByField("attribute").Text() != name {
				continue
			}
			if obj := left.ChildByField("object"); !configObject(obj) && !(obj.Text() == "self" && inConfigClass(asg)) {
				continue
			}
			vk := fm.deviceOf(asg.ChildByField("right"), 4)
			if vk == DeviceUnknown {
				known = false
				return
			}
			j.add(vk)
		}
	}
	visit(m)
	if wi, ok := m.project.(WordIndex); ok {
		self := m.absPath()
		if paths := wi.ModulesSpelling("."+name+" =", "."+name+"="); len(paths) <= maxConfigScan {
			for _, path := range paths {
				if path != self {
					if fm := m.foreignModel(path); fm != nil {
						visit(fm)
					}
				}
			}
		} else {
			known = false
		}
	}
	k := j.k
	if !known || j.n == 0 {
		k = DeviceUnknown
	}
	m.configDevices[name] = k
	return k
}

// inheritedDevice is the device kind of `self.x` read in a class that
// does not assign it, from what a base class assigns (InheritedAttrValues).
func (m *Model) inheritedDevice(attr *Node, depth int) DeviceKind {
	if len(m.SelfAttrValues(attr)) > 0 {
		return DeviceUnknown // the class's own values decide
	}
	fm, vals := m.InheritedAttrValues(attr)
	if len(vals) == 0 {
		return DeviceUnknown
	}
	return fm.combineDevices(vals, depth+1)
}

// formattedDevice reads a device string built by formatting: an f-string,
// or a literal that `.format()` or `%` fills (`f"cuda:{rank}"`,
// `"cuda:{}".format(gpu)`, `"cuda:%d" % gpu`), by the text before its
// first placeholder.
func formattedDevice(lit *Node) DeviceKind {
	if lit == nil || lit.Type != "string" {
		return DeviceUnknown
	}
	var prefix strings.Builder
	for _, c := range lit.Children {
		if c.Type == "string_start" && strings.ContainsAny(strings.ToLower(c.Text()), "b") {
			return DeviceUnknown
		}
		if c.Type == "interpolation" {
			break
		}
		if c.Type == "string_content" {
			prefix.WriteString(c.Text())
		}
	}
	s, _, _ := strings.Cut(prefix.String(), "{")
	s, _, _ = strings.Cut(s, "%")
	if s == "cuda:" {
		return DeviceCUDA
	}
	return DeviceUnknown
}

// deviceJoin accumulates the join of the device kinds of several values
// (joinDevices), the first one as it is.
type deviceJoin struct {
	k DeviceKind
	n int
}

func (j *deviceJoin) add(v DeviceKind) {
	if j.n == 0 {
		j.k = v
	} else {
		j.k = joinDevices(j.k, v)
	}
	j.n++
}

func joinDevices(a, b DeviceKind) DeviceKind {
	switch {
	case a == b:
		return a
	case a == DeviceCUDA || b == DeviceCUDA || a == DeviceMaybeCUDA || b == DeviceMaybeCUDA:
		return DeviceMaybeCUDA
	}
	return DeviceSomething
}

func deviceString(s string) DeviceKind {
	s = strings.TrimSpace(s)
	switch {
	case s == "cuda" || strings.HasPrefix(s, "cuda:"):
		return DeviceCUDA
	case s == "cpu" || s == "mps" || s == "xpu" || s == "meta" || strings.HasPrefix(s, "cpu:") || strings.HasPrefix(s, "xpu:") || strings.HasPrefix(s, "mps:"):
		return DeviceOther
	}
	return DeviceUnknown
}

// gpuListName reports a list of GPU ordinals by its name (`gpu_ids`,
// `self.device_ids`, `opt.gpus`).
func gpuListName(n *Node) bool {
	if n != nil && n.Type == "attribute" {
		n = n.ChildByField("attribute")
	}
	if n == nil || n.Type != "identifier" {
		return false
	}
	switch strings.ToLower(n.Text()) {
	case "gpu_ids", "gpuids", "gpus", "device_ids", "gpu_list":
		return true
	}
	return false
}

func deviceLikeName(name string) bool {
	n := strings.ToLower(name)
	return n == "device" || n == "dev" || strings.HasSuffix(n, "_device") || n == "gpu_id" || n == "gpu" || n == "local_rank"
}

// MoveTarget returns the device argument of a `.to(device)` / `.cuda()`
// call (nil for a bare `.cuda()`), whether call is such a move at all, and
// the object moved. `.to(...)` counts only when its one positional
// argument (or device=) is a device expression.
func (m *Model) MoveTarget(call *Node) (dev *Node, ok bool, obj *Node) {
	if call == nil || call.Type != "call" {
		return nil, false, nil
	}
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return nil, false, nil
	}
	attr := fn.ChildByField("attribute")
	if attr == nil {
		return nil, false, nil
	}
	method := attr.Text()
	if (method != "cuda" && method != "to") || HasSplat(call) {
		return nil, false, nil
	}
	obj = fn.ChildByField("object")
	pos := PositionalArgs(call)
	switch method {
	case "cuda":
		if len(pos) == 0 && KeywordArg(call, "device") == nil {
			return nil, true, obj
		}
		if d := Arg(call, 0, "device"); d != nil && len(pos) <= 1 {
			return d, true, obj
		}
	case "to":
		d := Arg(call, 0, "device")
		if d == nil || len(pos) > 1 || (len(pos) == 1 && KeywordArg(call, "device") != nil) {
			return nil, false, nil
		}
		if m.DeviceOf(d).IsDevice() {
			return d, true, obj
		}
	}
	return nil, false, nil
}

// MoveKind is the kind of device a move call targets (`.cuda()`: CUDA).
func (m *Model) MoveKind(call *Node) DeviceKind {
	dev, ok, _ := m.MoveTarget(call)
	if !ok {
		return DeviceUnknown
	}
	fn := call.ChildByField("function")
	if fn.ChildByField("attribute").Text() == "cuda" {
		return DeviceCUDA
	}
	return m.DeviceOf(dev)
}

// ModuleDevice says where the parameters of the module named by ident
// live when the code at site runs: DeviceCUDA when the name's last
// assignment in the same scope before site is a chain ending in
// `.cuda()` / `.to(<cuda device>)` (`model = Net().to(device)`), or a
// statement `ident.cuda()` / `ident.to(<cuda>)` on the path to site follows
// it. DeviceUnknown when unsure.
func (m *Model) ModuleDevice(ident, site *Node) DeviceKind {
	k, _ := m.ModuleMove(ident, site)
	return k
}

// ModuleMove is ModuleDevice that also returns the move call that decided
// the kind (`.to(device)` / `.cuda()`), nil when the kind is unknown.
func (m *Model) ModuleMove(ident, site *Node) (DeviceKind, *Node) {
	if ident == nil || ident.Type != "identifier" {
		return DeviceUnknown, nil
	}
	bs := m.Bindings(ident)
	if k, move, ok := m.aliasMove(ident, bs, site); ok {
		return k, move
	}
	var last *Binding
	for _, b := range bs {
		if b.Stmt == nil || b.Stmt.Start >= site.Start || wrapsItself(b) {
			continue
		}
		if last == nil || b.Stmt.Start > last.Stmt.Start {
			last = b
		}
	}
	if last == nil || last.Kind != AssignBinding || last.Value == nil {
		return DeviceUnknown, nil
	}
	// The assignment must run unconditionally before site: its statement's
	// block is an ancestor of site.
	if st := Statement(last.Stmt); st == nil || st.Parent == nil || !st.Parent.Contains(site) || m.ScopeOf(last.Stmt) != m.ScopeOf(site) {
		// `if use_gpu: model = model.cuda()`: on CUDA when a GPU is there.
		if st != nil && m.ScopeOf(last.Stmt) == m.ScopeOf(site) && OnGPUBranch(st) {
			if k := m.MoveKind(last.Value); k == DeviceCUDA || k == DeviceMaybeCUDA {
				return DeviceMaybeCUDA, last.Value
			}
		}
		// `if small: model = A() else: model = B()` then `model.to(device)`
		// on the path to site, after every branch.
		if k, move := m.laterMoveStatement(bs, last.Stmt.End, site); k != DeviceUnknown {
			return k, move
		}
		if k, move := m.branchMoves(bs, site); k != DeviceUnknown {
			return k, move
		}
		return m.everyBranchMoves(ident.Text(), last.Stmt, site)
	}
	kind := DeviceUnknown
	var move *Node
	for v := last.Value; v != nil && v.Type == "call"; {
		if k := m.MoveKind(v); k != DeviceUnknown {
			kind, move = k, v
			break
		}
		if k := m.BuilderDevice(v); k != DeviceUnknown {
			kind, move = k, v // `net = networks.define_G(...)`, which moves what it returns
			break
		}
		fn := v.ChildByField("function")
		if fn != nil && fn.Type != "attribute" {
			// `model = DataParallel(model)` / `model = torch.compile(model)`:
			// a wrapper keeps the parameters where the wrapped model put them.
			if pos := PositionalArgs(v); len(pos) > 0 && pos[0].Type == "identifier" && pos[0].Text() == ident.Text() {
				kind, move = m.ModuleMove(pos[0], pos[0])
			}
			break
		}
		if fn == nil {
			break
		}
		switch fn.ChildByField("attribute").Text() {
		case "train", "eval", "half", "float", "bfloat16", "requires_grad_":
			v = fn.ChildByField("object")
			continue
		}
		break
	}
	// Later statements `ident.cuda()` / `ident.to(dev)` before site.
	if k, call := m.laterMoveStatement(bs, last.Stmt.End, site); k != DeviceUnknown {
		kind, move = k, call
	}
	return kind, move
}

// laterMoveStatement returns the last statement `ident.cuda()` /
// `ident.to(dev)` (a module moves in place) of a name bound by bs that
// runs after offset after and unconditionally before site, and its kind.
func (m *Model) laterMoveStatement(bs []*Binding, after int, site *Node) (DeviceKind, *Node) {
	kind := DeviceUnknown
	var move *Node
	for _, use := range identUses(bs) {
		if use.Start <= after || use.Start >= site.Start {
			continue
		}
		attr := use.Parent
		if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != use {
			continue
		}
		call := attr.Parent
		if call == nil || call.Type != "call" || call.Parent == nil || call.Parent.Type != "expression_statement" {
			continue
		}
		stmt := call.Parent
		if stmt.Parent == nil || !stmt.Parent.Contains(site) {
			// `if opt.cuda: net.cuda()`: on CUDA when a GPU is there (as
			// for `net = net.cuda()` under such a test); an unconditional
			// move still wins.
			if kind == DeviceUnknown && m.ScopeOf(stmt) == m.ScopeOf(site) && OnGPUBranch(stmt) {
				if k := m.MoveKind(call); k == DeviceCUDA || k == DeviceMaybeCUDA {
					kind, move = DeviceMaybeCUDA, call
				}
			}
			continue
		}
		if k := m.MoveKind(call); k != DeviceUnknown {
			kind, move = k, call
		}
	}
	return kind, move
}

func identUses(bs []*Binding) []*Node {
	seen := map[*Node]bool{}
	var out []*Node
	for _, b := range bs {
		for _, u := range b.Uses {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// UsesCUDA reports whether the file visibly runs on CUDA: a `.cuda()`
// call, a "cuda" device string, or a torch.cuda.* reference.
func (m *Model) UsesCUDA() bool {
	if m.usesCUDA == 0 {
		m.usesCUDA = 1
		if m.usesCUDAScan() {
			m.usesCUDA = 2
		}
	}
	return m.usesCUDA == 2
}

// NoCUDAPlacement tells the model that, whatever the file says of CUDA,
// it places nothing on a device (library knowledge the caller has: a
// training script that prints a CUDA device and trains on the CPU):
// UsesCUDA then answers false.
func (m *Model) NoCUDAPlacement() { m.usesCUDA = 1 }

// cudaQuery reports `torch.cuda` read only to ask about the GPU
// (`torch.cuda.is_available()`, `device_count()`, `get_device_name()`):
// a script that asks and then sets `device = torch.device("cpu")` trains
// on the CPU (blind sample S17J's CGAN, its CUDA line commented out). One
// that asks and names no device here may place through a config of
// another module (a Kaggle baseline's CONFIG['device']).
func cudaQuery(n *Node) bool {
	up := n.Parent
	if up == nil || up.Type != "attribute" || up.ChildByField("object") != n {
		return false
	}
	switch up.ChildByField("attribute").Text() {
	case "is_available", "device_count", "get_device_name", "is_bf16_supported", "get_device_capability":
		return up.Parent != nil && up.Parent.Type == "call"
	}
	return false
}

// setsCPUDevice reports a file that builds `torch.device("cpu")` (or
// another device that is not CUDA) from a string literal.
func (m *Model) setsCPUDevice() bool {
	for _, call := range m.File.OfType("call") {
		if m.CalleeName(call) != "torch.device" {
			continue
		}
		if a := PositionalArgs(call); len(a) > 0 {
			if s, ok := StringValue(a[0]); ok && deviceString(s) == DeviceOther {
				return true
			}
		}
	}
	return false
}

func (m *Model) usesCUDAScan() bool {
	for _, n := range m.File.OfType("string") {
		if s, ok := StringValue(n); ok && deviceString(s) == DeviceCUDA && !m.comparedToOtherDevice(n) {
			return true
		}
	}
	for _, n := range m.File.OfType("attribute") {
		switch n.ChildByField("attribute").Text() {
		case "cuda":
			if cudaQuery(n) && m.setsCPUDevice() {
				continue // `is_cuda = torch.cuda.is_available()`, then `torch.device("cpu")`
			}
			return true
		case "accelerator":
			// torch.accelerator (PyTorch >= 2.6): the GPU when there is one.
			if m.QualifiedName(n) == "torch.accelerator" {
				return true
			}
		}
	}
	// Hugging Face Accelerate places everything on the GPU it finds.
	if m.Imports("accelerate") || m.starImportsCUDA() {
		return true
	}
	// A move to a CUDA ordinal (`.to(gpu_id)` with gpu_id = 0 passed in),
	// or to the device a helper picks, CUDA when there is one
	// (`.to(self._device)` with the device from a project function).
	for _, id := range m.File.Identifiers("to") {
		if call := methodCallOf(id); call != nil {
			if k := m.MoveKind(call); k == DeviceCUDA || k == DeviceMaybeCUDA {
				return true
			}
		}
	}
	return false
}

// comparedToOtherDevice reports a string compared with a name every value
// of which is a device string other than CUDA: `if DEVICE is "cuda":`
// under `DEVICE = "cpu"` tests a choice the file has made for the CPU
// (blind sample S34N's QuickDraw classifier), and uses no CUDA.
func (m *Model) comparedToOtherDevice(str *Node) bool {
	cmp := str.Parent
	if cmp == nil || cmp.Type != "comparison_operator" || len(cmp.NamedChildren()) != 2 {
		return false
	}
	other := cmp.NamedChildren()[0]
	if other == str {
		other = cmp.NamedChildren()[1]
	}
	if other.Type != "identifier" {
		return false
	}
	origins := m.Origins(other)
	for _, o := range origins {
		if o.Expr == nil || o.Model != nil && o.Model != m {
			return false
		}
		if s, ok := StringValue(o.Expr); !ok || deviceString(s) != DeviceOther {
			return false
		}
	}
	return len(origins) > 0
}

// RootIdent returns the identifier at the root of an attribute chain
// (`model` for `model.module.fc`), or nil.
func RootIdent(n *Node) *Node { return rootVariable(n, false, false) }

// SpellAtModule returns how module-level code spells the qualified name q
// with the file's imports (LocalName at module scope).
func (m *Model) SpellAtModule(q string) (string, bool) {
	return m.LocalName(m.File.Root, q)
}

// wrapsItself reports `model = Wrapper(model, ...)` (DataParallel,
// torch.compile ...): a rebinding that keeps the parameters where they were.
func wrapsItself(b *Binding) bool {
	v := b.Value
	if b.Kind != AssignBinding || v == nil || v.Type != "call" {
		return false
	}
	fn := v.ChildByField("function")
	if fn != nil && fn.Type == "attribute" && fn.ChildByField("object").Type == "identifier" && fn.ChildByField("object").Text() == b.Name {
		// model = model.apply(init) / .train() / .float(): the same
		// module, where it was; model = model.to(...) moves it.
		return ModuleKeepsPlace[fn.ChildByField("attribute").Text()]
	}
	if fn == nil {
		return false
	}
	pos := PositionalArgs(v)
	return len(pos) > 0 && pos[0].Type == "identifier" && pos[0].Text() == b.Name
}

// ModuleKeepsPlace are the nn.Module methods that return the module
// itself, its parameters where they were.
var ModuleKeepsPlace = map[string]bool{"apply": true, "train": true, "eval": true, "float": true, "half": true,
	"double": true, "bfloat16": true, "requires_grad_": true}

// OnGPUBranch reports a statement that runs only when an `if` around it
// tests for a GPU: its condition names CUDA or a GPU
// (`torch.cuda.is_available()`, `use_gpu`, `args.cuda`) and the statement
// is in its first branch.
func OnGPUBranch(stmt *Node) bool {
	for a := stmt.Parent; a != nil && !IsScopeNode(a); a = a.Parent {
		if a.Type != "if_statement" {
			continue
		}
		body := a.ChildByField("consequence")
		cond := a.ChildByField("condition")
		if body == nil || cond == nil || !body.Contains(stmt) {
			return false
		}
		// `if not args.use_cpu:`, `if device != "cpu":`: the GPU path.
		if cond.Type == "not_operator" && strings.Contains(strings.ToLower(cond.ChildByField("argument").Text()), "cpu") {
			return true
		}
		if cond.Type == "comparison_operator" && strings.Contains(cond.Text(), "!=") {
			for _, c := range cond.NamedChildren() {
				if v, ok := StringValue(c); ok && v == "cpu" {
					return true
				}
			}
		}
		found := false
		cond.Walk(func(n *Node) bool {
			if n.Type == "identifier" {
				t := strings.ToLower(n.Text())
				if strings.Contains(t, "cuda") || strings.Contains(t, "gpu") {
					found = true
				}
			}
			return !found
		})
		return found
	}
	return false
}

// branchMoves answers ModuleMove for a model built in the branches of one
// if/else (`if args.model == "Transformer": model = A().to(device) else:
// model = B().to(device)`): every branch's assignment moves it, the if has
// an else, and the if's block holds site. The kinds join as a conditional
// expression's do; the move returned is the last branch's.
func (m *Model) branchMoves(bs []*Binding, site *Node) (DeviceKind, *Node) {
	var ifs *Node
	kind := DeviceUnknown
	var move *Node
	for _, b := range bs {
		if b.Stmt == nil || b.Stmt.Start >= site.Start {
			continue
		}
		if b.Kind != AssignBinding || b.Value == nil {
			return DeviceUnknown, nil
		}
		a := b.Stmt.Ancestor("if_statement")
		if a == nil || ifs != nil && a != ifs {
			return DeviceUnknown, nil
		}
		ifs = a
		k := m.MoveKind(b.Value)
		if k == DeviceUnknown {
			return DeviceUnknown, nil
		}
		if move == nil {
			kind = k
		} else {
			kind = joinDevices(kind, k)
		}
		move = b.Value
	}
	if ifs == nil || ifs.Parent == nil || !ifs.Parent.Contains(site) || m.ScopeOf(ifs) != m.ScopeOf(site) {
		return DeviceUnknown, nil
	}
	hasElse := false
	for _, c := range ifs.Children {
		if c.Type == "else_clause" {
			hasElse = true
		}
	}
	if !hasElse {
		return DeviceUnknown, nil
	}
	return kind, move
}

// everyBranchMoves answers ModuleMove for a model placed differently on
// each branch of an if statement that runs before site (ImageNet and MoCo
// scripts: `if args.distributed: model.cuda(args.gpu); model = DDP(model)
// ... elif args.gpu is not None: model = model.cuda(args.gpu) else: raise
// ...`): each branch moves it, in place or by rebinding, leaves it on
// the CPU, or leaves by raise or return; the kind is their join, CUDA
// when available where some branch keeps it on the CPU, unknown unless
// some branch moves it to CUDA.
func (m *Model) everyBranchMoves(name string, inner, site *Node) (DeviceKind, *Node) {
	var ifs *Node
	for a := inner.Parent; a != nil && !IsScopeNode(a); a = a.Parent {
		if a.Type == "if_statement" && a.Parent != nil && a.Parent.Contains(site) && !a.Contains(site) {
			ifs = a
		}
	}
	if ifs == nil || m.ScopeOf(ifs) != m.ScopeOf(site) {
		return DeviceUnknown, nil
	}
	return m.ifMoves(name, ifs, 0)
}

// ifMoves is everyBranchMoves for one if statement.
func (m *Model) ifMoves(name string, ifs *Node, depth int) (DeviceKind, *Node) {
	if depth > 4 {
		return DeviceUnknown, nil
	}
	var blocks []*Node
	hasElse := false
	if b := ifs.ChildByField("consequence"); b != nil {
		blocks = append(blocks, b)
	}
	for _, c := range ifs.NamedChildren() {
		switch c.Type {
		case "elif_clause":
			if b := c.ChildByField("consequence"); b != nil {
				blocks = append(blocks, b)
			}
		case "else_clause":
			hasElse = true
			if b := c.ChildByField("body"); b != nil {
				blocks = append(blocks, b)
			}
		}
	}
	// A branch that leaves the model where it was is the CPU fallback of
	// a chain that tests the device (`if not use_accel:`, `if
	// device.type == "cuda":` with no else); in any other chain (`if
	// small:`) it is a choice gpuopt cannot read.
	fallback := false
	for _, c := range append([]*Node{ifs}, ifs.NamedChildren()...) {
		if c.Is("if_statement", "elif_clause") {
			if cond := c.ChildByField("condition"); cond != nil && deviceTest.MatchString(cond.Text()) {
				fallback = true
			}
		}
	}
	kind, placed := DeviceUnknown, 0
	if !hasElse {
		if !fallback {
			return DeviceUnknown, nil
		}
		kind, placed = DeviceOther, 1 // no else: the model stays where it was
	}
	var move *Node
	for _, block := range blocks {
		k, mv, exits := m.blockMoves(name, block, depth)
		if exits {
			continue
		}
		if k == DeviceUnknown {
			if !fallback {
				return DeviceUnknown, nil
			}
			k = DeviceOther // `if not use_accel: print("using CPU")`: left on the CPU
		}
		if placed == 0 {
			kind = k
		} else {
			kind = joinDevices(kind, k)
		}
		placed++
		if mv != nil {
			move = mv
		}
	}
	if move == nil || (kind != DeviceCUDA && kind != DeviceMaybeCUDA) {
		return DeviceUnknown, nil
	}
	return kind, move
}

// deviceTest matches a condition that chooses a device.
var deviceTest = regexp.MustCompile(`(?i)cuda|gpu|accel|cpu|device`)

// blockMoves returns where the statements of block leave the module
// name: the last move of it (`name.cuda(...)`, `name = name.to(dev)`, a
// nested if whose every branch moves it) that no later rebinding other
// than a wrapper of it (`name = DDP(name)`) undoes; exits when the block
// ends in raise or return.
func (m *Model) blockMoves(name string, block *Node, depth int) (DeviceKind, *Node, bool) {
	kind := DeviceUnknown
	var move *Node
	for _, st := range block.NamedChildren() {
		switch st.Type {
		case "raise_statement", "return_statement":
			return kind, move, true
		case "if_statement":
			if k, mv := m.ifMoves(name, st, depth+1); k != DeviceUnknown {
				kind, move = k, mv
			}
		case "expression_statement":
			c := st.NamedChildren()
			if len(c) != 1 {
				continue
			}
			e := c[0]
			if e.Type == "call" {
				fn := e.ChildByField("function")
				if fn != nil && fn.Type == "attribute" && fn.ChildByField("object").Type == "identifier" && fn.ChildByField("object").Text() == name {
					if k := m.MoveKind(e); k != DeviceUnknown {
						kind, move = k, e
					}
				}
				continue
			}
			if e.Type != "assignment" {
				continue
			}
			left, right := e.ChildByField("left"), e.ChildByField("right")
			if left == nil || right == nil || left.Type != "identifier" || left.Text() != name || right.Type != "call" {
				continue
			}
			if k := m.MoveKind(right); k != DeviceUnknown {
				kind, move = k, right
				continue
			}
			// `name = DDP(name, ...)`: the wrapper keeps the parameters
			// where they are; anything else is a new module.
			pos := PositionalArgs(right)
			if len(pos) == 0 || pos[0].Type != "identifier" || pos[0].Text() != name {
				kind, move = DeviceUnknown, nil
			}
		}
	}
	return kind, move, false
}

// aliasMove answers ModuleMove for a name that, on every assignment before
// site, names another module or the module its DDP/DataParallel wrapper
// holds (`model_without_ddp = model`, then `model_without_ddp =
// model.module` under `if args.distributed:`): it lives where they do. ok is
// false when some assignment is not such an alias.
func (m *Model) aliasMove(ident *Node, bs []*Binding, site *Node) (kind DeviceKind, move *Node, ok bool) {
	n := 0
	for _, b := range bs {
		if b.Stmt == nil || b.Stmt.Start >= site.Start {
			continue
		}
		if b.Kind != AssignBinding || b.Value == nil || m.ScopeOf(b.Stmt) != m.ScopeOf(site) {
			return DeviceUnknown, nil, false
		}
		src := b.Value
		if src.Type == "attribute" && src.ChildByField("attribute").Text() == "module" {
			src = src.ChildByField("object")
		}
		if src == nil || src.Type != "identifier" || src.Text() == ident.Text() {
			return DeviceUnknown, nil, false
		}
		k, mv := m.ModuleMove(src, b.Stmt)
		if k == DeviceUnknown {
			return DeviceUnknown, nil, false
		}
		if n == 0 {
			kind, move = k, mv
		} else {
			kind = joinDevices(kind, k)
		}
		n++
	}
	return kind, move, n > 0
}

// RequestsDeterminism reports whether the module asks for deterministic
// kernels: torch.use_deterministic_algorithms, `<x>.deterministic = ...`
// (cudnn) or a deterministic= keyword, or CUBLAS_WORKSPACE_CONFIG.
func (m *Model) RequestsDeterminism() bool {
	f := m.File
	if f.Spells("use_deterministic_algorithms") {
		return true
	}
	for _, id := range f.Identifiers("deterministic") {
		// `x.deterministic` or `deterministic=...`, not a variable so named
		if id.Field == "attribute" && id.Parent.Type == "attribute" || id.Field == "name" && id.Parent.Type == "keyword_argument" {
			return true
		}
	}
	for _, n := range f.OfType("string") {
		if strings.Contains(n.Text(), "CUBLAS_WORKSPACE_CONFIG") {
			return true
		}
	}
	return false
}

// upsamplingCallees build or call a layer that brings a feature map back
// up in resolution.
var upsamplingCallees = map[string]bool{"torch.nn.ConvTranspose2d": true, "torch.nn.ConvTranspose3d": true, "torch.nn.Upsample": true,
	"torch.nn.UpsamplingBilinear2d": true, "torch.nn.UpsamplingNearest2d": true, "torch.nn.PixelShuffle": true,
	"torch.nn.functional.interpolate": true, "torch.nn.functional.upsample": true, "torch.nn.functional.upsample_bilinear": true,
	"torch.nn.functional.conv_transpose2d": true, "torch.nn.functional.pixel_shuffle": true}

// Upsamples reports a file that builds or calls an upsampling layer
// (ConvTranspose2d, Upsample, interpolate, PixelShuffle): its network's
// outputs are per pixel, or it is a generator or decoder.
func (m *Model) Upsamples() bool {
	if !m.File.SpellsAny([]string{"ConvTranspose2d", "ConvTranspose3d", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "PixelShuffle", "interpolate", "upsample", "upsample_bilinear", "conv_transpose2d", "pixel_shuffle"}) {
		return false
	}
	for _, c := range m.File.OfType("call") {
		if upsamplingCallees[m.CalleeName(c)] {
			return true
		}
	}
	return false
}

// UncastWriteInForward returns, in a method named forward, the first
// write that autocast does not cast (UncastWrite), nil when there is none.
func (m *Model) UncastWriteInForward() *Node {
	if !m.uncastWriteDone {
		m.uncastWriteDone = true
		for _, def := range m.File.OfType("function_definition") {
			if name := def.ChildByField("name"); name == nil || name.Text() != "forward" {
				continue
			}
			if m.uncastWrite = UncastWriteExcept(def, m.HostContainer); m.uncastWrite != nil {
				break
			}
		}
	}
	return m.uncastWrite
}

// lowPrecisionLinalg are torch's linear-algebra calls that have no bf16
// or fp16 CUDA kernel and that autocast does not cast to fp32: given the
// bf16 output of a matmul under autocast they raise (NotImplementedError
// "svd_cuda_gesvdjBatched" not implemented for 'BFloat16', and the like;
// corpus/gpu/amp004_linalg.py on torch 2.11, .notes/amp004-linalg-h200.txt).
// svdvals, eigvals, pinverse and torch.qr share the measured calls'
// kernels. (eigh, cholesky, logdet, matrix_exp and norm ran.)
var lowPrecisionLinalg = map[string]bool{
	"torch.svd": true, "torch.linalg.svd": true, "torch.linalg.svdvals": true,
	"torch.det": true, "torch.linalg.det": true,
	"torch.inverse": true, "torch.linalg.inv": true,
	"torch.linalg.eig": true, "torch.linalg.eigvals": true,
	"torch.linalg.solve": true, "torch.linalg.qr": true, "torch.qr": true,
	"torch.linalg.pinv": true, "torch.pinverse": true,
}

// lowPrecisionLinalgMethods are the tensor-method spellings of
// lowPrecisionLinalg (`H.svd()`).
var lowPrecisionLinalgMethods = map[string]bool{"svd": true, "det": true, "inverse": true, "pinverse": true}

// LinalgInForward returns, in a method named forward or in a function of
// this module that a forward calls, a call of a linear-algebra op that
// raises on bf16 activations (lowPrecisionLinalg), nil when there is
// none: a registration network's SVD of the covariance its matmul built
// (blind sample S26L's DCP and RPMNet, where AMP004's wrap would raise).
// An op on a parameter (`torch.inverse(self.weight)`) or on a tensor the
// code casts first (`.double()`, `.float()`) stays fp32 under autocast.
func (m *Model) LinalgInForward() *Node {
	if m.linalgDone {
		return m.linalg
	}
	m.linalgDone = true
	seen := map[*Node]bool{}
	var visit func(def *Node, depth int) *Node
	visit = func(def *Node, depth int) *Node {
		if seen[def] {
			return nil
		}
		seen[def] = true
		var found *Node
		def.Walk(func(n *Node) bool {
			if found != nil {
				return false
			}
			if n.Type != "call" {
				return true
			}
			if m.lowPrecisionLinalgCall(n) {
				found = n
				return false
			}
			if depth > 0 {
				if callee := m.CalledDef(n); callee != nil && callee.Type == "function_definition" {
					found = visit(callee, depth-1)
				}
			}
			return found == nil
		})
		return found
	}
	for _, def := range m.File.OfType("function_definition") {
		if name := def.ChildByField("name"); name == nil || name.Text() != "forward" {
			continue
		}
		if m.linalg = visit(def, 2); m.linalg != nil {
			break
		}
	}
	return m.linalg
}

// lowPrecisionLinalgCall reports a call of lowPrecisionLinalg, or of its
// method spellings, whose operand may be an activation: not an attribute
// of self (a parameter) and not cast by .float() or .double().
func (m *Model) lowPrecisionLinalgCall(call *Node) bool {
	fn := call.ChildByField("function")
	if fn == nil {
		return false
	}
	var operand *Node
	switch {
	case lowPrecisionLinalg[m.CalleeName(call)]:
		if args := call.ChildByField("arguments"); args != nil && len(args.NamedChildren()) > 0 {
			operand = args.NamedChildren()[0]
		}
	case fn.Type == "attribute" && lowPrecisionLinalgMethods[fn.ChildByField("attribute").Text()] && m.QualifiedName(fn.ChildByField("object")) == "":
		operand = fn.ChildByField("object")
	default:
		return false
	}
	if operand == nil {
		return false
	}
	if operand.Type == "attribute" && operand.ChildByField("object").Text() == "self" {
		return false
	}
	if operand.Type == "call" {
		if f := operand.ChildByField("function"); f != nil && f.Type == "attribute" {
			switch f.ChildByField("attribute").Text() {
			case "float", "double":
				return false
			}
		}
	}
	return true
}

// inPlaceMatmuls are the in-place matrix products of a tensor: autocast
// casts none of its operands, so under bf16 autocast a bf16 activation
// meets an fp32 parameter or buffer (a center loss's `distmat.addmm_(x,
// self.centers.t())`) and the product raises "mat1 and mat2 must have the
// same dtype" (blind sample S23A's DAN).
var inPlaceMatmuls = map[string]bool{"addmm_": true, "addbmm_": true, "baddbmm_": true, "addmv_": true, "addr_": true}

// UncastWrite returns the first write under root that autocast does not
// cast and that raises once its operands are bf16 and fp32:
//   - an assignment by advanced index (a tensor, a mask, a list) of a
//     value that is not a number (`cos_th_m[cond] = (cos_th -
//     self.mm)[cond]`): index_put refuses mixed dtypes, where a store by
//     slice or integer (`preds[a:b] = out`) is a copy, which converts;
//   - an in-place matrix product (inPlaceMatmuls).
func UncastWrite(root *Node) *Node { return UncastWriteExcept(root, nil) }

// UncastWriteExcept is UncastWrite that passes over the stores into a
// container skip reports (a dict, whose items are not tensor elements).
func UncastWriteExcept(root *Node, skip func(container *Node) bool) *Node {
	var found *Node
	root.Walk(func(n *Node) bool {
		if found != nil {
			return false
		}
		switch n.Type {
		case "assignment":
			left, right := n.ChildByField("left"), n.ChildByField("right")
			if left != nil && right != nil && left.Type == "subscript" && !numberLiteral(right) && !stringKey(left) && !basicIndex(left) &&
				(skip == nil || !skip(left.ChildByField("value"))) {
				found = n
			}
		case "call":
			if fn := n.ChildByField("function"); fn != nil && fn.Type == "attribute" && inPlaceMatmuls[fn.ChildByField("attribute").Text()] {
				found = n
			}
		}
		return true
	})
	return found
}

// basicIndex reports a subscript whose every index is a slice, an integer
// literal, None or an ellipsis (`out[a:b]`, `x[:, 0]`): a store through
// it is a copy into a view, which converts the value's dtype.
func basicIndex(sub *Node) bool {
	basic := false
	for _, idx := range sub.Children {
		if idx.Field != "subscript" {
			continue
		}
		if !idx.Is("slice", "ellipsis", "none") && !(numberLiteral(idx) && !idx.Is("float", "true", "false")) && !rangeLoopVar(idx) {
			return false
		}
		basic = true
	}
	return basic
}

// rangeLoopVar reports the target of an enclosing `for j in range(...):`
// (an int: `crops[i:i + 1, j] = F.interpolate(...)` is a store into a
// view, which converts; blind sample S26A's NTS-Net), unless the loop body
// rebinds it before the use.
func rangeLoopVar(id *Node) bool {
	if id.Type != "identifier" {
		return false
	}
	for a := id.Parent; a != nil && !IsDefOrLambda(a); a = a.Parent {
		if a.Type != "for_statement" || !a.ChildByField("body").Contains(id) {
			continue
		}
		left, right := a.ChildByField("left"), a.ChildByField("right")
		if left == nil || left.Type != "identifier" || left.Text() != id.Text() {
			continue
		}
		if right == nil || right.Type != "call" || right.ChildByField("function").Text() != "range" {
			return false
		}
		rebound := false
		a.ChildByField("body").Walk(func(n *Node) bool {
			if n.Type == "assignment" && n.Start < id.Start && n.ChildByField("left").Text() == id.Text() {
				rebound = true
			}
			return !rebound
		})
		return !rebound
	}
	return false
}

// stringKey reports a subscript by a string (`outputs["errormap"]`): a
// dict store, not a tensor's index_put (blind sample S22M's MVSNet).
func stringKey(sub *Node) bool {
	idx := sub.ChildByField("subscript")
	return idx != nil && idx.Type == "string"
}

// numberLiteral reports a Python number, bool or None, possibly negated
// or parenthesised.
func numberLiteral(n *Node) bool {
	for n.Is("unary_operator", "parenthesized_expression") {
		c := n.NamedChildren()
		if len(c) == 0 {
			return false
		}
		n = c[len(c)-1]
	}
	return n.Is("integer", "float", "true", "false", "none")
}

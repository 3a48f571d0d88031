package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CupyRoundTrip is XFER003.
var CupyRoundTrip = &Rule{
	Code:      "XFER003",
	Name:      "cupy-torch-round-trip",
	Title:     "Hand CuPy arrays and CUDA tensors to each other on the GPU, not through NumPy",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"cupy"},
	Names:     []string{"from_numpy", "tensor", "as_tensor", "cpu"}, // torch.from_numpy/tensor/as_tensor of a host copy, or cp.asarray/array of t.cpu().numpy()
	Check:     checkCupyRoundTrip,
}

func init() { Register(CupyRoundTrip) }

func checkCupyRoundTrip(p *Pass) {
	for _, call := range p.File.OfType("call") {
		switch p.Model.CalleeName(call) {
		case "cupy.asnumpy":
			if len(call.ChildByField("arguments").NamedChildren()) == 1 && len(rewrite.PositionalArgs(call)) == 1 {
				xfer3Forward(p, call, rewrite.PositionalArgs(call)[0], false)
			}
		case "cupy.asarray", "cupy.array":
			xfer3Reverse(p, call)
		default:
			fn := call.ChildByField("function")
			if fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "get" &&
				len(call.ChildByField("arguments").NamedChildren()) == 0 && xfer3CupyValue(p.Model, fn.ChildByField("object"), 0) {
				xfer3Forward(p, call, fn.ChildByField("object"), true)
			}
		}
	}
}

// xfer3Forward handles a host copy of the CuPy array src (`cp.asnumpy(src)`
// or `src.get()`) that a torch constructor turns into a tensor on a GPU.
func xfer3Forward(p *Pass, host, src *rewrite.Node, viaGet bool) {
	m := p.Model
	args := host.Parent
	if args == nil || args.Type != "argument_list" {
		return
	}
	ctor := args.Parent
	pos := rewrite.PositionalArgs(ctor)
	if len(pos) != 1 || pos[0] != host || rewrite.HasSplat(ctor) {
		return
	}
	q := m.CalleeName(ctor)
	var dev, dtype *rewrite.Node
	switch q {
	case "torch.from_numpy":
		if len(args.NamedChildren()) != 1 {
			return
		}
	case "torch.tensor", "torch.as_tensor":
		for _, a := range args.NamedChildren() {
			if a.Type != "keyword_argument" {
				continue
			}
			switch a.ChildByField("name").Text() {
			case "device":
				dev = a.ChildByField("value")
			case "dtype":
				dtype = a.ChildByField("value")
			default:
				return // requires_grad=, pin_memory=, ...
			}
		}
	default:
		return
	}
	// The tensor must end up on a GPU: moved at once, or built there.
	whole := ctor
	devText := ""
	if fn := ctor.Parent; fn != nil && fn.Type == "attribute" && fn.ChildByField("object") == ctor && fn.Parent.Type == "call" {
		if d, ok, obj := m.MoveTarget(fn.Parent); ok && obj == ctor && m.MoveKind(fn.Parent) != rewrite.DeviceOther {
			whole, devText = fn.Parent, `"cuda"`
			if d != nil {
				devText = d.Text()
				if d.Type == "integer" {
					devText = `"cuda:` + d.Text() + `"`
				}
			}
		}
	}
	if whole == ctor {
		if dev == nil || m.DeviceOf(dev) == rewrite.DeviceOther {
			return // a CPU tensor: not a round trip
		}
		devText = dev.Text()
	}
	srcText := src.Text()
	if !viaGet && !xfer3CupyValue(m, src, 0) {
		p.Report(whole, "if "+srcText+" is a CuPy array, this copies it to the host and back to the GPU: torch.as_tensor("+srcText+", device="+devText+") reads it in place", nil)
		return
	}
	asTensor, ok := m.LocalName(whole, "torch.as_tensor")
	fresh := xfer3FreshCupy(m, src)
	if !fresh && !xfer3FreshName(m, src) {
		// A view (x[::-1], a parameter, ...) may have negative strides, on
		// which torch.as_tensor aborts the process; the host copy was
		// contiguous.
		p.Report(whole, "this copies a CuPy array to the host and back to the GPU: torch.as_tensor("+srcText+", device="+devText+") reads it in place (by hand: as_tensor aborts on negative strides such as x[::-1], and the tensor would share "+srcText+"'s memory)", nil)
		return
	}
	if !ok || xfer3HasComment(whole) {
		p.Report(whole, "this copies a CuPy array to the host and back to the GPU: use torch.as_tensor("+srcText+", device="+devText+")", nil)
		return
	}
	repl := asTensor + "(" + srcText + ", device=" + devText
	if dtype != nil {
		repl += ", dtype=" + dtype.Text()
	}
	repl += ")"
	app, why := xfer3Safety(p, fresh, "the tensor shares "+srcText+"'s memory, so later writes to either show in the other")
	p.Report(whole, "this copies a CuPy array to the host and back to the GPU: "+repl+" reads it in place (__cuda_array_interface__)"+why,
		Fix(app, "Use "+repl, rewrite.Edit{Start: whole.Start, End: whole.End, New: repl}))
}

// xfer3Reverse handles cp.asarray / cp.array of `t.cpu().numpy()`.
func xfer3Reverse(p *Pass, call *rewrite.Node) {
	m := p.Model
	pos := rewrite.PositionalArgs(call)
	if len(pos) != 1 || rewrite.HasSplat(call) {
		return
	}
	isArray := m.CalleeName(call) == "cupy.array"
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		if a.Type != "keyword_argument" {
			continue
		}
		switch a.ChildByField("name").Text() {
		case "dtype", "order":
		case "ndmin":
			if !isArray {
				return
			}
		default:
			return // copy=, blocking=, ...
		}
	}
	arg := pos[0]
	if arg.Type != "call" || callAttr(arg) != "numpy" {
		return
	}
	base, cpu, numpy, tolist, detach := sync1StripConversions(arg)
	if base == nil || !cpu || !numpy || tolist || base == arg || (base.Type == "call" && rewrite.HasSplat(base)) {
		return
	}
	if xfer3HasComment(arg) || m.IsArrayExpr(base) && !m.IsTensorExpr(base) {
		return
	}
	kept := base.Text()
	if c := base.NamedChildren(); base.Type == "parenthesized_expression" && len(c) == 1 && !detach {
		kept = c[0].Text() // cp.asarray((a @ b).cpu().numpy()) -> cp.asarray(a @ b)
	}
	if detach {
		kept += ".detach()"
	}
	callee := call.ChildByField("function").Text()
	app, why := rewrite.Safe, ""
	if isArray {
		app, why = xfer3Safety(p, true, "")
	} else {
		app, why = xfer3Safety(p, xfer3FreshTensor(m, base), "the array shares the tensor's memory, so later writes to either show in the other")
	}
	what := "reads it in place (__cuda_array_interface__)"
	if isArray {
		what = "copies it on the device"
	}
	p.Report(arg, "this copies a tensor to the host and back to the GPU: "+callee+"("+kept+") "+what+why,
		Fix(app, "Pass the tensor to "+callee+" directly", rewrite.Edit{Start: arg.Start, End: arg.End, New: kept}))
}

// xfer3Safety returns the fix's applicability and the message's reason:
// safe when sharing memory cannot be observed (fresh) and the file sets no
// CUDA stream or device of its own.
func xfer3Safety(p *Pass, fresh bool, aliasing string) (rewrite.Applicability, string) {
	if xfer3ExplicitPlacement(p) {
		return rewrite.Unsafe, " (unsafe: this file picks CUDA streams or devices, and the host copy synchronised them)"
	}
	if !fresh {
		return rewrite.Unsafe, " (unsafe: " + aliasing + ")"
	}
	return rewrite.Safe, ""
}

// xfer3PlacementNames are the calls that choose a CUDA stream or device.
var xfer3PlacementNames = map[string]bool{
	"cupy.cuda.Stream": true, "cupy.cuda.ExternalStream": true, "cupy.cuda.Device": true,
	"cupy.cuda.stream.Stream": true, "cupy.cuda.runtime.setDevice": true, "cupy.cuda.Stream.null": false,
	"torch.cuda.Stream": true, "torch.cuda.stream": true, "torch.cuda.ExternalStream": true,
	"torch.cuda.set_stream": true, "torch.cuda.set_device": true, "torch.cuda.device": true,
	"torch.cuda.StreamContext": true,
}

// xfer3ExplicitPlacement reports whether the file chooses CUDA streams or
// devices itself (or names a device other than cuda:0).
func xfer3ExplicitPlacement(p *Pass) bool {
	return p.Memo("xfer3.placement", func() any {
		found := false
		p.File.Root.Walk(func(n *rewrite.Node) bool {
			if found {
				return false
			}
			switch n.Type {
			case "attribute", "identifier":
				if xfer3PlacementNames[p.Model.QualifiedName(n)] {
					found = true
				}
			case "string":
				if s, ok := rewrite.StringValue(n); ok && strings.HasPrefix(s, "cuda:") && s != "cuda:0" {
					found = true
				}
			}
			return !found
		})
		return found
	}).(bool)
}

// xfer3HasComment reports a comment inside n (the fix would drop it).
func xfer3HasComment(n *rewrite.Node) bool {
	found := false
	n.Walk(func(c *rewrite.Node) bool {
		if c.Type == "comment" {
			found = true
		}
		return !found
	})
	return found
}

// xfer3NotArrays are cupy functions that do not return one ndarray.
var xfer3NotArrays = map[string]bool{
	"asnumpy": true, "get_array_module": true, "dtype": true, "isscalar": true, "result_type": true,
	"can_cast": true, "iinfo": true, "finfo": true, "shape": true, "ndim": true, "size": true,
	"allclose": true, "array_equal": true, "array_equiv": true, "may_share_memory": true,
	"shares_memory": true, "isfortran": true, "get_default_memory_pool": true,
	"get_default_pinned_memory_pool": true, "fuse": true, "ElementwiseKernel": true,
	"ReductionKernel": true, "RawKernel": true, "RawModule": true, "show_config": true,
	"save": true, "savez": true, "savez_compressed": true, "binary_repr": true, "base_repr": true,
	"is_available": true, "memoize": true, "clear_memo": true, "errstate": true, "seterr": true,
	"geterr": true, "nonzero": true, "where": true, "unique": true, "histogram": true,
	"meshgrid": true, "split": true, "array_split": true, "hsplit": true, "vsplit": true,
	"dsplit": true, "broadcast_arrays": true, "unravel_index": true, "ix_": true, "modf": true,
	"frexp": true, "divmod": true, "printoptions": true, "set_printoptions": true,
	"get_printoptions": true, "array_repr": true, "array_str": true, "array2string": true,
	"seed": true, "get_random_state": true, "set_random_state": true, "RandomState": true,
	"default_rng": true, "Generator": true, "svd": true, "qr": true, "eigh": true, "eig": true,
	"slogdet": true, "lstsq": true, "eigvalsh": false,
}

// xfer3CupyValue reports whether expr evidently is a CuPy ndarray: the
// result of a cupy function, a method, index, operator or `.T` of one, a
// name only ever assigned such values, or a parameter annotated
// `cupy.ndarray`.
func xfer3CupyValue(m *rewrite.Model, expr *rewrite.Node, depth int) bool {
	if expr == nil || depth > 6 {
		return false
	}
	switch expr.Type {
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			return xfer3CupyValue(m, c[0], depth+1)
		}
	case "call":
		q := m.CalleeName(expr)
		if strings.HasPrefix(q, "cupy.") {
			return !strings.HasPrefix(q, "cupy.cuda.") && !strings.HasPrefix(q, "cupy.testing.") &&
				!xfer3NotArrays[q[strings.LastIndex(q, ".")+1:]]
		}
		fn := expr.ChildByField("function")
		if fn.Type != "attribute" {
			return false
		}
		switch fn.ChildByField("attribute").Text() {
		case "get", "tolist", "item", "tobytes", "tofile", "dump", "dumps", "toDlpack", "__dlpack__",
			"nonzero", "fill", "set", "data", "device", "shape", "size", "ndim", "nbytes", "dtype":
			return false
		}
		return xfer3CupyValue(m, fn.ChildByField("object"), depth+1)
	case "subscript":
		return xfer3CupyValue(m, expr.ChildByField("value"), depth+1)
	case "attribute":
		switch expr.ChildByField("attribute").Text() {
		case "T", "real", "imag":
			return xfer3CupyValue(m, expr.ChildByField("object"), depth+1)
		}
	case "binary_operator":
		return xfer3CupyValue(m, expr.ChildByField("left"), depth+1) || xfer3CupyValue(m, expr.ChildByField("right"), depth+1)
	case "unary_operator":
		return xfer3CupyValue(m, expr.ChildByField("argument"), depth+1)
	case "identifier":
		bs := m.Bindings(expr)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			switch b.Kind {
			case rewrite.AssignBinding:
				if b.Value == nil || !xfer3CupyValue(m, b.Value, depth+1) {
					return false
				}
			case rewrite.ParamBinding:
				if !xfer3CupyAnnotation(m, b.Ident) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

// xfer3CupyAnnotation reports a parameter annotated `cupy.ndarray` (through
// the file's imports).
func xfer3CupyAnnotation(m *rewrite.Model, ident *rewrite.Node) bool {
	par := ident.Parent
	if par == nil || !par.Is("typed_parameter", "typed_default_parameter") {
		return false
	}
	t := par.ChildByField("type")
	if t == nil {
		return false
	}
	if c := t.NamedChildren(); len(c) == 1 {
		t = c[0]
	}
	return m.QualifiedName(t) == "cupy.ndarray"
}

// xfer3FreshCupyCalls are cupy functions that return a new array of their
// own (never a view of an argument).
var xfer3FreshCupyCalls = map[string]bool{
	"zeros": true, "ones": true, "empty": true, "full": true, "zeros_like": true, "ones_like": true,
	"empty_like": true, "full_like": true, "arange": true, "linspace": true, "logspace": true,
	"eye": true, "identity": true, "copy": true, "dot": true, "matmul": true, "tensordot": true,
	"inner": true, "outer": true, "kron": true, "concatenate": true, "stack": true, "vstack": true,
	"hstack": true, "dstack": true, "column_stack": true, "exp": true, "log": true, "log2": true,
	"log10": true, "log1p": true, "expm1": true, "sqrt": true, "square": true, "sin": true, "cos": true,
	"tan": true, "tanh": true, "abs": true, "absolute": true, "maximum": true, "minimum": true,
	"clip": true, "sum": true, "mean": true, "std": true, "var": true, "prod": true, "cumsum": true,
	"cumprod": true, "sort": true, "argsort": true, "argmax": true, "argmin": true, "round": true,
	"around": true, "floor": true, "ceil": true, "sign": true, "power": true, "add": true,
	"subtract": true, "multiply": true, "divide": true, "true_divide": true, "floor_divide": true,
	"mod": true, "tile": true, "repeat": true, "pad": true, "diff": true, "bincount": true,
}

// xfer3FreshCupyMethods are ndarray methods that return a new array.
var xfer3FreshCupyMethods = map[string]bool{
	"copy": true, "astype": true, "sum": true, "mean": true, "std": true, "var": true, "prod": true,
	"max": true, "min": true, "cumsum": true, "dot": true, "round": true, "clip": true,
	"argmax": true, "argmin": true,
}

// xfer3FreshCupy reports whether expr is a new CuPy array that nothing else
// refers to: an arithmetic result or a call known to allocate its output.
func xfer3FreshCupy(m *rewrite.Model, expr *rewrite.Node) bool {
	for expr.Type == "parenthesized_expression" && len(expr.NamedChildren()) == 1 {
		expr = expr.NamedChildren()[0]
	}
	if !xfer3CupyValue(m, expr, 0) {
		return false
	}
	switch expr.Type {
	case "binary_operator", "unary_operator", "comparison_operator":
		return true
	case "call":
		if kw := rewrite.KeywordValue(expr, "copy"); kw != nil || rewrite.KeywordArg(expr, "out") != nil {
			return false
		}
		q := m.CalleeName(expr)
		if name, ok := strings.CutPrefix(q, "cupy."); ok {
			switch {
			case strings.HasPrefix(name, "random."), strings.HasPrefix(name, "fft."):
				return true
			case name == "array" && len(rewrite.PositionalArgs(expr)) == 1:
				return true // copies by default
			case name == "linalg.inv", name == "linalg.pinv", name == "linalg.solve", name == "linalg.norm":
				return true
			}
			return xfer3FreshCupyCalls[name]
		}
		fn := expr.ChildByField("function")
		return fn.Type == "attribute" && xfer3FreshCupyMethods[fn.ChildByField("attribute").Text()]
	}
	return false
}

// xfer3FreshName reports whether expr is a name every assignment of which
// is a fresh CuPy array (so a contiguous one, though other code may refer
// to it).
func xfer3FreshName(m *rewrite.Model, expr *rewrite.Node) bool {
	if expr.Type != "identifier" {
		return false
	}
	bs := m.Bindings(expr)
	for _, b := range bs {
		if b.Kind != rewrite.AssignBinding || b.Value == nil || !xfer3FreshCupy(m, b.Value) {
			return false
		}
	}
	return len(bs) > 0
}

// xfer3FreshTorchCalls are torch functions that return a new tensor.
var xfer3FreshTorchCalls = map[string]bool{
	"zeros": true, "ones": true, "empty": true, "full": true, "rand": true, "randn": true,
	"randint": true, "arange": true, "linspace": true, "eye": true, "tensor": true, "cat": true,
	"stack": true, "matmul": true, "mm": true, "bmm": true, "exp": true, "log": true, "sqrt": true,
	"softmax": true, "sigmoid": true, "tanh": true, "clone": true, "zeros_like": true,
	"ones_like": true, "rand_like": true, "randn_like": true, "full_like": true,
}

// xfer3FreshTensor reports whether expr is a new tensor that nothing else
// refers to: an arithmetic result, `.clone()`, or a torch function known to
// allocate its output.
func xfer3FreshTensor(m *rewrite.Model, expr *rewrite.Node) bool {
	for expr.Type == "parenthesized_expression" && len(expr.NamedChildren()) == 1 {
		expr = expr.NamedChildren()[0]
	}
	switch expr.Type {
	case "binary_operator", "unary_operator", "comparison_operator":
		return m.IsTensorExpr(expr)
	case "call":
		if rewrite.KeywordArg(expr, "out") != nil {
			return false
		}
		if name, ok := strings.CutPrefix(m.CalleeName(expr), "torch."); ok {
			return xfer3FreshTorchCalls[name]
		}
		return callAttr(expr) == "clone" && m.IsTensorExpr(expr)
	}
	return false
}

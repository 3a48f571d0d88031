package patterns

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// NumpyOnGPU is CUPY001.
var NumpyOnGPU = &Rule{
	Code:      "CUPY001",
	Name:      "numpy-large-arrays",
	Title:     "Run NumPy work on large arrays with CuPy on the GPU",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"numpy"},
	Names:     []string{"zeros", "ones", "empty", "full", "arange", "eye", "identity", "random"}, // findings are constructors of cupyShapeElements; every numpy.random.* spelling has `random`
	Check:     checkNumpyOnGPU,
}

func init() { Register(NumpyOnGPU) }

// cupyLargeElements is the element count from which CUPY001 calls an
// array large.
const cupyLargeElements = 1_000_000

// cupyFunctions are the NumPy functions (after "numpy.") that CuPy
// implements with the same signature and that return one array. The value
// is false for functions that return a tuple of arrays (usable only when
// the result is unpacked).
var cupyFunctions = map[string]bool{
	"zeros": true, "ones": true, "empty": true, "full": true, "zeros_like": true, "ones_like": true,
	"empty_like": true, "full_like": true, "arange": true, "linspace": true, "logspace": true,
	"eye": true, "identity": true, "array": true, "asarray": true, "copy": true,
	"dot": true, "matmul": true, "tensordot": true, "inner": true, "outer": true, "kron": true,
	"einsum": true, "exp": true, "log": true, "log2": true, "log10": true, "log1p": true,
	"expm1": true, "sqrt": true, "square": true, "abs": true, "absolute": true, "sin": true,
	"cos": true, "tan": true, "tanh": true, "arctan": true, "arctan2": true, "sinh": true, "cosh": true,
	"maximum": true, "minimum": true, "clip": true, "sum": true, "mean": true, "std": true,
	"var": true, "prod": true, "max": true, "min": true, "amax": true, "amin": true,
	"argmax": true, "argmin": true, "cumsum": true, "cumprod": true, "sort": true,
	"argsort": true, "concatenate": true, "stack": true, "vstack": true, "hstack": true,
	"transpose": true, "reshape": true, "floor": true, "ceil": true, "round": true, "around": true,
	"sign": true, "power": true, "add": true, "subtract": true, "multiply": true, "divide": true,
	"true_divide": true, "floor_divide": true, "mod": true, "median": true, "percentile": true,
	"quantile": true, "diff": true, "isnan": true, "isinf": true, "isfinite": true,
	"nan_to_num": true, "tile": true, "repeat": true, "pad": true, "squeeze": true,
	"expand_dims": true, "flip": true, "bincount": true, "cov": true, "corrcoef": true,
	"trace": true, "diag": true, "triu": true, "tril": true, "logical_and": true,
	"logical_or": true, "logical_not": true, "count_nonzero": true, "any": true, "all": true,
	"linalg.norm": true, "linalg.inv": true, "linalg.solve": true, "linalg.det": true,
	"fft.fft": true, "fft.ifft": true, "fft.fft2": true, "fft.ifft2": true, "fft.rfft": true,
	"fft.irfft": true, "fft.fftn": true, "fft.ifftn": true,
	"random.rand": true, "random.randn": true, "random.random": true, "random.random_sample": true,
	"random.standard_normal": true, "random.uniform": true, "random.normal": true,
	"random.randint": true,
	// Tuples of arrays.
	"histogram": false, "linalg.svd": false, "linalg.qr": false, "linalg.eigh": false, "meshgrid": false,
}

// cupyMethods are ndarray methods that return an array in both libraries.
var cupyMethods = map[string]bool{
	"sum": true, "mean": true, "std": true, "var": true, "max": true, "min": true, "argmax": true,
	"argmin": true, "reshape": true, "astype": true, "copy": true, "transpose": true,
	"flatten": true, "ravel": true, "clip": true, "dot": true, "cumsum": true, "cumprod": true,
	"prod": true, "round": true, "squeeze": true, "swapaxes": true, "repeat": true, "take": true,
	"any": true, "all": true, "argsort": true, "conj": true, "diagonal": true, "trace": true,
}

// cupyHostMethods are ndarray methods whose result is a host value in both
// libraries, and the in-place methods that return None.
var cupyHostMethods = map[string]bool{"tolist": true, "item": true, "tobytes": true, "sort": true, "fill": true}

// cupyHostAttrs are ndarray attributes that are host values in both.
var cupyHostAttrs = map[string]bool{"shape": true, "ndim": true, "size": true, "dtype": true, "nbytes": true, "itemsize": true, "strides": true}

// cupyScalarBuiltins take a CuPy array as they take a NumPy one.
var cupyScalarBuiltins = map[string]bool{"len": true, "float": true, "int": true, "bool": true, "complex": true}

func checkNumpyOnGPU(p *Pass) {
	v := p.Env.Gate(Need{})
	if v.Silent() || deliberateHostArrays(p) {
		return
	}
	m := p.Model
	// Roots: calls that build an array from a shape.
	type root struct {
		call  *rewrite.Node
		elems int64 // -1: not a literal
	}
	var roots []root
	byCall := map[*rewrite.Node]bool{}
	for _, call := range p.File.OfType("call") {
		name, ok := strings.CutPrefix(m.CalleeName(call), "numpy.")
		if !ok {
			continue
		}
		if n, ok := cupyShapeElements(m, call, name); ok {
			roots = append(roots, root{call, n})
			byCall[call] = true
		}
	}
	reported := map[*rewrite.Node]bool{}
	for _, r := range roots {
		if reported[r.call] || r.elems >= 0 && r.elems < cupyLargeElements || r.elems < 0 && batchSized(r.call) || cupyImageBuffer(m, r.call) || onlyAllocated(p, r.call) || inItemLoader(r.call) || moduleSelfTest(p, r.call) || initialisesOnce(m, r.call) {
			continue
		}
		plan := newCupyPlan(p, byCall)
		plan.add(r.call)
		plan.run()
		large := r.elems >= cupyLargeElements
		if !large && !plan.gpu {
			continue // an array of unknown size that stays on the host
		}
		// One finding per array of the plan that qualifies on its own.
		fix := plan.fix()
		for _, c := range plan.roots {
			if reported[c] {
				continue
			}
			n, _ := cupyShapeElements(m, c, strings.TrimPrefix(m.CalleeName(c), "numpy."))
			var msg string
			switch {
			case n >= cupyLargeElements:
				msg = fmt.Sprintf("%s builds a %s-element array on the CPU: CuPy does this NumPy work on the GPU", c.ChildByField("function").Text(), groupDigits(n))
			case c == r.call || plan.gpu && n < 0:
				msg = c.ChildByField("function").Text() + " builds an array on the CPU that is then copied to the GPU: build it and compute on it with CuPy"
			default:
				continue
			}
			reported[c] = true
			msg += " (~75–120× measured for a 10000×1000 matmul on an H100 when the data stays on the GPU, 1.6–1.8× with copies both ways)"
			if fix == nil {
				msg += "; no code action: " + plan.failure
			}
			if v.Hint {
				msg += " (" + v.Assumption + ")"
			}
			p.Report(c, msg, fix)
		}
	}
}

// batchSized reports a random draw whose size is a batch size
// (`np.random.randint(0, n, opt.batch_size)`): a few hundred indices a
// step, where CuPy gains nothing and torch.randint(..., device=...) is
// the natural spelling (blind sample S34AP's CoreDiff).
func batchSized(call *rewrite.Node) bool {
	s := rewrite.Arg(call, 2, "size")
	if s == nil || !s.Is("identifier", "attribute") {
		return false
	}
	name := s.Text()
	if s.Type == "attribute" {
		name = s.ChildByField("attribute").Text()
	}
	return strings.Contains(strings.ToLower(name), "batch")
}

// initialisesOnce reports an array built in a constructor or a weight
// initialiser (`__init__`, `reset_parameters`, `init_weights`): a
// parameter's initial values, made once (blind sample S27C's TuckER,
// `nn.Parameter(torch.tensor(np.random.uniform(-1, 1, (d2, d1, d1)),
// device="cuda"))`). CuPy would speed up a step that runs once.
func initialisesOnce(m *rewrite.Model, call *rewrite.Node) bool {
	if len(m.EnclosingLoops(call)) > 0 {
		return false
	}
	fn := enclosingFunction(call)
	if fn == nil {
		return false
	}
	switch fn.ChildByField("name").Text() {
	case "__init__", "reset_parameters", "init_weights", "_init_weights", "initialize_weights":
		return true
	}
	return false
}

// onlyAllocated reports an array built by np.zeros/ones/empty/full and
// bound to a name that no NumPy work reads: no arithmetic, no NumPy
// call, no method beyond its shape (a placeholder label array returned
// for a test set). Building it is all the CPU does; CuPy would not
// speed that up.
func onlyAllocated(p *Pass, call *rewrite.Node) bool {
	switch strings.TrimPrefix(p.Model.CalleeName(call), "numpy.") {
	case "zeros", "ones", "empty", "full":
	default:
		return false
	}
	left := assignedIdentifier(call)
	if left == nil {
		return false
	}
	bs := p.Model.Bindings(left)
	if len(bs) != 1 {
		return false
	}
	for _, use := range bs[0].Uses {
		par := use.Parent
		if par == nil {
			continue
		}
		switch par.Type {
		case "binary_operator", "augmented_assignment", "comparison_operator", "unary_operator":
			return false
		case "attribute":
			switch par.ChildByField("attribute").Text() {
			case "shape", "dtype", "ndim", "size":
				continue
			}
			return false // a.sum(), a.T, a.dot(b)
		case "subscript":
			if par.Parent != nil && par.Parent.Type == "augmented_assignment" {
				return false // a[i] += x
			}
		case "argument_list":
			if c := par.Parent; c != nil && c.Type == "call" && strings.HasPrefix(p.Model.CalleeName(c), "numpy.") {
				return false
			}
		}
	}
	return true
}

// deliberateHostArrays reports a file whose NumPy arrays stay on the host
// on purpose: it programs the GPU itself (PyCUDA, Numba's CUDA, cuDF, or
// CuPy copying the file's NumPy arrays in), so its NumPy arrays are the
// CPU baseline of a comparison or the host data those libraries copy in
// (`gpuarray.to_gpu(a)`, `cp.array(A)`); or its name says it is the CPU
// version (cpu_test.py beside gpu_test.py).
func deliberateHostArrays(p *Pass) bool {
	for _, lib := range []string{"pycuda", "numba.cuda", "cudf"} {
		if p.Model.Imports(lib) {
			return true
		}
	}
	// A comparison: CuPy copies a NumPy array of the file to the GPU
	// (`A_dev = cp.array(A)`) that NumPy also computes with on the host
	// (`C = A @ B`): the host array is the lesson's baseline. (An array
	// only built to be copied is what this rule reports.)
	if p.Model.Imports("cupy") {
		for _, call := range p.Model.CallsTo("cupy.array", "cupy.asarray") {
			a := rewrite.Arg(call, 0, "obj")
			if a == nil || a.Type != "identifier" {
				continue
			}
			b := p.Model.ReachingBinding(a, call)
			if b == nil || b.Value == nil || b.Value.Type != "call" || !strings.HasPrefix(p.Model.CalleeName(b.Value), "numpy.") {
				continue
			}
			for _, u := range b.Uses {
				if u != a && p.Model.ReachingBinding(u, u) == b {
					return true // read by host code too
				}
			}
		}
	}
	base := strings.ToLower(filepath.Base(p.File.Src.Path))
	for _, part := range strings.FieldsFunc(strings.TrimSuffix(base, filepath.Ext(base)), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if part == "cpu" {
			return true
		}
	}
	return false
}

// groupDigits writes n with thousands separators.
// cupyImageBuffer reports an array built as an image for the host's image
// libraries: an (H, W, 3) or (H, W, 4) shape (YOLOv5's np.ones((640, 640,
// 3)) stand-in picture), or one handed, maybe scaled, to PIL, OpenCV,
// matplotlib or imageio. Drawing and decoding happen on the CPU whatever
// builds the buffer.
func cupyImageBuffer(m *rewrite.Model, call *rewrite.Node) bool {
	if shape := rewrite.Arg(call, 0, "shape"); shape != nil && shape.Is("tuple", "list") {
		dims := shape.NamedChildren()
		if len(dims) == 3 && dims[2].Type == "integer" && (dims[2].Text() == "3" || dims[2].Text() == "4") {
			return true
		}
	}
	n := call
	for n.Parent != nil && n.Parent.Is("binary_operator", "parenthesized_expression") {
		n = n.Parent
	}
	if n.Parent == nil || n.Parent.Type != "argument_list" {
		return false
	}
	q := m.CalleeName(n.Parent.Parent)
	for _, lib := range []string{"PIL.", "cv2.", "matplotlib.", "imageio."} {
		if strings.HasPrefix(q, lib) {
			return true
		}
	}
	return false
}

// inItemLoader reports code of a dataset's `__getitem__`: it runs in the
// DataLoader's worker processes, on the CPU, feeding CPU libraries
// (albumentations, OpenCV); CUDA in forked workers fails, and the batch
// reaches the GPU after collation (blind sample S15A's empty mask handed
// to albumentations).
func inItemLoader(n *rewrite.Node) bool {
	fn := n.Ancestor("function_definition")
	return fn != nil && fn.ChildByField("name").Text() == "__getitem__"
}

func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cupyShapeElements reports whether call (numpy.<name>) builds an array
// from a shape, and its element count when the shape is literal (-1 when
// it is not).
func cupyShapeElements(m *rewrite.Model, call *rewrite.Node, name string) (int64, bool) {
	if rewrite.HasSplat(call) {
		return -1, false
	}
	pos := rewrite.PositionalArgs(call)
	shape := func(n *rewrite.Node) int64 {
		if n == nil {
			return -1
		}
		return cupyShapeValue(m, n)
	}
	switch name {
	case "zeros", "ones", "empty", "full":
		return shape(rewrite.Arg(call, 0, "shape")), true
	case "random.rand", "random.randn":
		if len(pos) == 0 {
			return 1, true
		}
		total := int64(1)
		for _, a := range pos {
			n := cupyIntValue(m, a, 0)
			if n < 0 {
				return -1, true
			}
			total *= n
		}
		return total, true
	case "random.random", "random.random_sample", "random.standard_normal":
		return shape(rewrite.Arg(call, 0, "size")), true
	case "random.uniform", "random.normal", "random.randint":
		if s := rewrite.Arg(call, 2, "size"); s != nil {
			return shape(s), true
		}
		return 0, false // one scalar
	case "arange":
		if len(pos) == 1 && len(call.ChildByField("arguments").NamedChildren()) == 1 {
			return cupyIntValue(m, pos[0], 0), true
		}
		if len(pos) == 2 && len(call.ChildByField("arguments").NamedChildren()) == 2 {
			a, b := cupyIntValue(m, pos[0], 0), cupyIntValue(m, pos[1], 0)
			if a < 0 || b < 0 {
				return -1, true
			}
			return b - a, true
		}
		return -1, true
	case "eye", "identity":
		n := cupyIntValue(m, rewrite.Arg(call, 0, "N"), 0)
		if name == "identity" {
			n = cupyIntValue(m, rewrite.Arg(call, 0, "n"), 0)
		}
		if n < 0 {
			return -1, true
		}
		if mm := rewrite.Arg(call, 1, "M"); mm != nil && name == "eye" {
			k := cupyIntValue(m, mm, 0)
			if k < 0 {
				return -1, true
			}
			return n * k, true
		}
		return n * n, true
	}
	return 0, false
}

// cupyShapeValue evaluates a literal shape (an int or a tuple/list of
// ints) to its element count, -1 when it is not literal.
func cupyShapeValue(m *rewrite.Model, n *rewrite.Node) int64 {
	if v := m.ValueOf(n); v != nil && n.Type == "identifier" && v.Is("tuple", "list") {
		n = v
	}
	if n.Is("tuple", "list") {
		total := int64(1)
		for _, c := range n.NamedChildren() {
			k := cupyIntValue(m, c, 0)
			if k < 0 {
				return -1
			}
			total *= k
		}
		return total
	}
	return cupyIntValue(m, n, 0)
}

// cupyIntValue evaluates a literal non-negative integer expression
// (`10_000`, `4096 * 4096`, `2**20`, `int(1e6)`, a name assigned one of
// these once); -1 when it cannot.
func cupyIntValue(m *rewrite.Model, n *rewrite.Node, depth int) int64 {
	if n == nil || depth > 8 {
		return -1
	}
	switch n.Type {
	case "integer":
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Text(), "_", ""), 0, 64)
		if err != nil || v < 0 {
			return -1
		}
		return v
	case "parenthesized_expression":
		if c := n.NamedChildren(); len(c) == 1 {
			return cupyIntValue(m, c[0], depth+1)
		}
	case "identifier":
		if v := m.ValueOf(n); v != nil {
			return cupyIntValue(m, v, depth+1)
		}
	case "call":
		pos := rewrite.PositionalArgs(n)
		if m.CalleeName(n) == "int" && len(pos) == 1 && pos[0].Type == "float" {
			f, err := strconv.ParseFloat(strings.ReplaceAll(pos[0].Text(), "_", ""), 64)
			if err == nil && f >= 0 && f < 1<<62 {
				return int64(f)
			}
		}
	case "binary_operator":
		a := cupyIntValue(m, n.ChildByField("left"), depth+1)
		b := cupyIntValue(m, n.ChildByField("right"), depth+1)
		if a < 0 || b < 0 || a > 1<<31 || b > 1<<31 {
			return -1
		}
		switch n.ChildByField("operator").Text() {
		case "*":
			return a * b
		case "+":
			return a + b
		case "-":
			if a >= b {
				return a - b
			}
		case "<<":
			if b < 40 && a < 1<<20 {
				return a << b
			}
		case "//":
			if b > 0 {
				return a / b
			}
		case "**":
			if b <= 62 {
				r := int64(1)
				for i := int64(0); i < b && r <= 1<<40; i++ {
					r *= a
				}
				return r
			}
		}
	}
	return -1
}

// cupyPlan follows arrays from their NumPy constructors through every use
// and collects the edits that move that work to CuPy. failure says why the
// plan has no code action ("" when it has one).
type cupyPlan struct {
	p         *Pass
	candidate map[*rewrite.Node]bool // constructor calls that may join
	roots     []*rewrite.Node
	seen      map[*rewrite.Node]bool // expressions that hold CuPy arrays
	names     map[*rewrite.Binding]bool
	queue     []*rewrite.Node
	rechecked map[*rewrite.Node]bool
	wraps     []*rewrite.Node // arguments of CPU consumers
	checks    []*rewrite.Node // operands that must be CuPy arrays or scalars
	edits     []rewrite.Edit
	converted map[*rewrite.Node]bool // calls whose callee became cupy's
	cp        string                 // how the file spells cupy
	needsCp   bool                   // `import cupy as cp` must be added
	gpu       bool                   // the data reaches GPU code
	failure   string
}

func newCupyPlan(p *Pass, candidates map[*rewrite.Node]bool) *cupyPlan {
	pl := &cupyPlan{p: p, candidate: candidates, seen: map[*rewrite.Node]bool{},
		names: map[*rewrite.Binding]bool{}, converted: map[*rewrite.Node]bool{}, rechecked: map[*rewrite.Node]bool{}}
	if name, ok := p.Model.SpellAtModule("cupy"); ok {
		pl.cp = name
	} else {
		pl.cp, pl.needsCp = "cp", true
		if p.File.Spells("cp") {
			pl.fail("the name cp is taken")
		}
	}
	return pl
}

func (pl *cupyPlan) fail(why string) {
	if pl.failure == "" {
		pl.failure = why
	}
}

// add makes the NumPy call a CuPy one and follows its result.
func (pl *cupyPlan) add(call *rewrite.Node) {
	if pl.converted[call] {
		return
	}
	if pl.candidate[call] {
		pl.roots = append(pl.roots, call)
	}
	pl.convert(call)
	pl.mark(call)
}

// convert rewrites the callee of a numpy call to cupy's.
func (pl *cupyPlan) convert(call *rewrite.Node) {
	if pl.converted[call] {
		return
	}
	pl.converted[call] = true
	name := strings.TrimPrefix(pl.p.Model.CalleeName(call), "numpy.")
	fn := call.ChildByField("function")
	if !pl.spellable(fn) {
		return
	}
	pl.edits = append(pl.edits, rewrite.Edit{Start: fn.Start, End: fn.End, New: pl.cp + "." + name})
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		if a.Type == "keyword_argument" && a.ChildByField("name").Text() == "out" {
			pl.fail("out= is used")
		}
	}
}

// spellable checks that the cupy spelling resolves at n.
func (pl *cupyPlan) spellable(n *rewrite.Node) bool {
	if pl.needsCp {
		return true
	}
	if s, ok := pl.p.Model.LocalName(n, "cupy"); !ok || s != pl.cp {
		pl.fail("cupy is not visible everywhere under one name")
		return false
	}
	return true
}

// run follows every queued expression to a fixed point, then checks the
// operands that had to be CuPy arrays or scalars (pulling in constructors
// they come from).
func (pl *cupyPlan) run() {
	for len(pl.queue) > 0 || len(pl.checks) > 0 {
		for len(pl.queue) > 0 {
			e := pl.queue[0]
			pl.queue = pl.queue[1:]
			pl.follow(e)
		}
		checks := pl.checks
		pl.checks = nil
		for _, c := range checks {
			pl.check(c)
		}
	}
}

// mark records that e holds a CuPy array and queues its context.
func (pl *cupyPlan) mark(e *rewrite.Node) {
	if !pl.seen[e] {
		pl.seen[e] = true
		pl.queue = append(pl.queue, e)
	}
}

// follow decides what e's context does with the CuPy array e holds.
func (pl *cupyPlan) follow(e *rewrite.Node) {
	m := pl.p.Model
	par := e.Parent
	switch par.Type {
	case "list", "tuple":
		// np.concatenate([a, b]), np.stack((a, b))
		call := par.Parent.Parent
		if par.Parent.Type != "argument_list" || !pl.numpyCall(call) {
			pl.fail("an array is stored in a " + par.Type)
			return
		}
		for _, c := range par.NamedChildren() {
			if c != e {
				pl.checks = append(pl.checks, c)
			}
		}
		pl.argChecks(call, par)
		pl.convert(call)
		pl.mark(call)
	case "parenthesized_expression":
		pl.mark(par)
	case "binary_operator", "comparison_operator":
		for _, o := range par.NamedChildren() {
			if o != e {
				pl.checks = append(pl.checks, o)
			}
		}
		pl.mark(par)
	case "unary_operator":
		pl.mark(par)
	case "not_operator", "if_statement", "while_statement", "assert_statement", "expression_statement", "elif_clause":
		// bool() of a CuPy array behaves as NumPy's; a discarded value.
	case "conditional_expression":
		if c := par.NamedChildren(); len(c) == 3 && c[1] == e {
			return // the condition
		}
		pl.fail("an array is chosen by a conditional expression")
	case "attribute":
		attr := par.ChildByField("attribute").Text()
		switch {
		case par.Parent.Type == "call" && par.Parent.ChildByField("function") == par:
			call := par.Parent
			switch {
			case cupyMethods[attr]:
				pl.argChecks(call, nil)
				pl.mark(call)
			case cupyHostMethods[attr]:
			default:
				pl.fail("the array's ." + attr + "() method")
			}
		case attr == "T" || attr == "real" || attr == "imag":
			pl.mark(par)
		case cupyHostAttrs[attr]:
		default:
			pl.fail("the array's ." + attr + " attribute")
		}
	case "subscript":
		if par.ChildByField("value") != e {
			pl.fail("an array indexes another value")
			return
		}
		for _, idx := range par.NamedChildren()[1:] {
			pl.checks = append(pl.checks, idx)
		}
		if asg := par.Parent; asg.Is("assignment", "augmented_assignment") && asg.ChildByField("left") == par {
			pl.checks = append(pl.checks, asg.ChildByField("right"))
			return
		}
		pl.mark(par)
	case "keyword_argument":
		pl.argument(e, par.Parent.Parent, par.ChildByField("name").Text())
	case "argument_list":
		pl.argument(e, par.Parent, "")
	case "interpolation":
		pl.wrap(e)
	case "assignment":
		left := par.ChildByField("left")
		if par.ChildByField("right") != e || par.Parent.Type != "expression_statement" {
			pl.fail("an array is assigned in a chained or nested assignment")
			return
		}
		switch {
		case left.Type == "identifier":
			pl.bindName(left)
		case left.Type == "subscript":
			// grid[:, 0] = e: grid must be a CuPy array too.
			for _, c := range left.NamedChildren() {
				pl.checks = append(pl.checks, c)
			}
		case left.Is("pattern_list", "tuple_pattern") && e.Type == "call" && pl.converted[e]:
			for _, t := range left.NamedChildren() {
				if t.Type != "identifier" {
					pl.fail("an array is unpacked into a non-name")
					return
				}
				pl.bindName(t)
			}
		default:
			pl.fail("an array is stored in " + left.Text())
		}
	case "augmented_assignment":
		if par.ChildByField("right") == e {
			pl.checks = append(pl.checks, par.ChildByField("left"))
		}
		// the left side is a name of the plan (bindName) or a subscript.
	default:
		pl.fail("an array is used in a " + strings.ReplaceAll(par.Type, "_", " "))
	}
	if e.Type == "call" && pl.converted[e] && !cupyFunctions[strings.TrimPrefix(m.CalleeName(e), "numpy.")] && !e.Parent.Is("assignment") {
		pl.fail("a tuple of arrays is not unpacked")
	}
}

// bindName adds a variable that holds a CuPy array: every binding of it in
// its scope must be one too, and every read follows.
func (pl *cupyPlan) bindName(ident *rewrite.Node) {
	m := pl.p.Model
	s := m.VarScope(ident)
	if s == nil {
		pl.fail(ident.Text() + " is global or nonlocal")
		return
	}
	for _, b := range s.Bindings[ident.Text()] {
		if pl.names[b] {
			continue
		}
		pl.names[b] = true
		switch b.Kind {
		case rewrite.AssignBinding:
			if b.Value == nil {
				// `h, edges = np.histogram(x)`: only the unpacking of a
				// converted call is followed.
				if r := b.Stmt.ChildByField("right"); b.Stmt.Type != "assignment" || r == nil || !pl.converted[r] {
					pl.fail(ident.Text() + " is also bound by unpacking")
					return
				}
				break
			}
			pl.checks = append(pl.checks, b.Value)
		case rewrite.AugAssignBinding:
		default:
			pl.fail(ident.Text() + " is also bound by a " + bindingWord(b.Kind))
			return
		}
		for _, u := range b.Uses {
			pl.mark(u)
		}
	}
}

func bindingWord(k rewrite.BindingKind) string {
	switch k {
	case rewrite.ImportBinding:
		return "import"
	case rewrite.DefBinding, rewrite.ClassBinding:
		return "definition"
	case rewrite.ParamBinding:
		return "parameter"
	case rewrite.LoopBinding:
		return "for loop"
	case rewrite.WithBinding:
		return "with statement"
	}
	return "statement gpuopt does not follow"
}

// argument handles the array e passed to call (as keyword kw, "" when
// positional).
func (pl *cupyPlan) argument(e, call *rewrite.Node, kw string) {
	m := pl.p.Model
	q := m.CalleeName(call)
	switch {
	case strings.HasPrefix(q, "numpy."):
		name := strings.TrimPrefix(q, "numpy.")
		if _, ok := cupyFunctions[name]; !ok || kw == "out" {
			pl.wrap(e)
			return
		}
		pl.argChecks(call, e)
		pl.convert(call)
		pl.mark(call)
	case strings.HasPrefix(q, "cupy."):
		pl.gpu = true
	case q == "xgboost.DMatrix" || q == "xgboost.QuantileDMatrix":
		// XGBoost reads CuPy arrays in place.
	case q == "torch.as_tensor" || q == "torch.tensor":
		if d := rewrite.KeywordValue(call, "device"); d != nil && kw == "" && m.DeviceOf(d) == rewrite.DeviceCUDA {
			pl.gpu = true
			return
		}
		pl.wrap(e)
	case q == "torch.from_numpy":
		pl.fromNumpy(e, call)
	case cupyScalarBuiltins[q] && kw == "":
	default:
		pl.wrap(e)
	}
}

// fromNumpy turns `torch.from_numpy(e).cuda()` / `.to(dev)` into
// `torch.as_tensor(e, device=...)`; other uses get a host copy.
func (pl *cupyPlan) fromNumpy(e, call *rewrite.Node) {
	m := pl.p.Model
	fn := call.Parent
	if fn == nil || fn.Type != "attribute" || fn.Parent.Type != "call" || len(call.ChildByField("arguments").NamedChildren()) != 1 {
		pl.wrap(e)
		return
	}
	move := fn.Parent
	dev, ok, obj := m.MoveTarget(move)
	if !ok || obj != call || m.MoveKind(move) != rewrite.DeviceCUDA {
		pl.wrap(e)
		return
	}
	asTensor, ok := m.LocalName(call, "torch.as_tensor")
	src := pl.p.File.Src
	if !ok || strings.Contains(src.Text(call.Start, e.Start), "#") || strings.Contains(src.Text(e.End, move.End), "#") {
		pl.fail("torch.from_numpy(...) cannot be rewritten here")
		return
	}
	devText := `"cuda"`
	if dev != nil {
		devText = dev.Text()
		if dev.Type == "integer" {
			devText = `"cuda:` + dev.Text() + `"`
		}
	}
	pl.gpu = true
	pl.edits = append(pl.edits,
		rewrite.Edit{Start: call.Start, End: e.Start, New: asTensor + "("},
		rewrite.Edit{Start: e.End, End: move.End, New: ", device=" + devText + ")"})
}

// wrap gives a CPU consumer a host copy of e (decided once the plan is
// complete: a method call whose object joins the plan later takes e as it
// is).
func (pl *cupyPlan) wrap(e *rewrite.Node) {
	pl.wraps = append(pl.wraps, e)
}

// wrapEdits returns the edits of the host copies still needed.
func (pl *cupyPlan) wrapEdits() []rewrite.Edit {
	var out []rewrite.Edit
	for _, e := range pl.wraps {
		if args := e.Parent; args.Type == "argument_list" {
			if fn := args.Parent.ChildByField("function"); fn.Type == "attribute" && pl.seen[fn.ChildByField("object")] {
				continue
			}
		}
		if !pl.spellable(e) {
			return nil
		}
		out = append(out,
			rewrite.Edit{Start: e.Start, End: e.Start, New: pl.cp + ".asnumpy("},
			rewrite.Edit{Start: e.End, End: e.End, New: ")"})
	}
	return out
}

// numpyCall reports a call of a NumPy function CuPy implements.
func (pl *cupyPlan) numpyCall(call *rewrite.Node) bool {
	if call == nil || call.Type != "call" {
		return false
	}
	name, ok := strings.CutPrefix(pl.p.Model.CalleeName(call), "numpy.")
	_, known := cupyFunctions[name]
	return ok && known
}

// argChecks queues every argument of call but except.
func (pl *cupyPlan) argChecks(call, except *rewrite.Node) {
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		switch a.Type {
		case "keyword_argument":
			if v := a.ChildByField("value"); v != except {
				pl.checks = append(pl.checks, v)
			}
		case "list_splat", "dictionary_splat":
			pl.fail("arguments are passed with * or **")
		default:
			if a != except {
				pl.checks = append(pl.checks, a)
			}
		}
	}
}

// check accepts an operand that holds a CuPy array of the plan or a host
// scalar; an array from another NumPy constructor joins the plan.
func (pl *cupyPlan) check(n *rewrite.Node) {
	m := pl.p.Model
	if pl.seen[n] || cupyScalar(m, n, 0) {
		return
	}
	switch n.Type {
	case "parenthesized_expression":
		if c := n.NamedChildren(); len(c) == 1 {
			pl.check(c[0])
			return
		}
	case "identifier":
		bs := m.Bindings(n)
		all := len(bs) > 0
		for _, b := range bs {
			all = all && pl.names[b]
		}
		if all {
			return
		}
		if b := m.Binding(n); b != nil && b.Kind == rewrite.AssignBinding && b.Value != nil && pl.joinable(b.Value) {
			pl.bindName(b.Ident)
			return
		}
	case "call":
		if pl.joinable(n) {
			return
		}
	case "tuple", "list":
		if p := n.Parent; p != nil && p.Type == "argument_list" {
			for _, c := range n.NamedChildren() {
				pl.check(c) // np.concatenate([a, b]), np.stack((a, b))
			}
			return
		}
	case "slice":
		for _, c := range n.NamedChildren() {
			pl.check(c)
		}
		return
	}
	if !pl.rechecked[n] && pl.pull(n, 0, map[*rewrite.Node]bool{}) {
		// An array computed from another constructor joined the plan:
		// check n again once that constructor's data flow is followed.
		pl.rechecked[n] = true
		pl.checks = append(pl.checks, n)
		return
	}
	pl.fail(n.Text() + " may be a NumPy array")
}

// pull adds the NumPy constructors n is computed from (through the values
// of the names it reads) to the plan, and reports whether it added any.
func (pl *cupyPlan) pull(n *rewrite.Node, depth int, visited map[*rewrite.Node]bool) bool {
	if n == nil || depth > 8 || visited[n] {
		return false
	}
	visited[n] = true
	m := pl.p.Model
	added := false
	n.Walk(func(c *rewrite.Node) bool {
		switch c.Type {
		case "call":
			if pl.candidate[c] && !pl.converted[c] {
				pl.add(c)
				added = true
			}
		case "identifier":
			if !m.IsRead(c) {
				return true
			}
			for _, b := range m.Bindings(c) {
				if b.Kind == rewrite.AssignBinding && b.Value != nil && pl.pull(b.Value, depth+1, visited) {
					added = true
				}
			}
		case "lambda", "function_definition", "class_definition":
			return false
		}
		return true
	})
	return added
}

// joinable adds a NumPy constructor (any size) or a CuPy-implemented NumPy
// call whose arguments join too; false for anything else.
func (pl *cupyPlan) joinable(n *rewrite.Node) bool {
	if n.Type != "call" {
		return pl.seen[n]
	}
	if pl.converted[n] {
		return true
	}
	if pl.candidate[n] {
		pl.add(n)
		return true
	}
	return false
}

// cupyScalar reports whether n is evidently a host scalar (or a literal
// shape, dtype, or index) that CuPy accepts where NumPy does.
func cupyScalar(m *rewrite.Model, n *rewrite.Node, depth int) bool {
	if n == nil || depth > 6 {
		return false
	}
	switch n.Type {
	case "integer", "float", "true", "false", "none", "string", "ellipsis", "concatenated_string":
		return true
	case "parenthesized_expression", "unary_operator":
		c := n.NamedChildren()
		return len(c) == 1 && cupyScalar(m, c[0], depth+1)
	case "binary_operator":
		return cupyScalar(m, n.ChildByField("left"), depth+1) && cupyScalar(m, n.ChildByField("right"), depth+1)
	case "tuple", "list":
		for _, c := range n.NamedChildren() {
			if !cupyScalar(m, c, depth+1) {
				return false
			}
		}
		return true
	case "slice":
		for _, c := range n.NamedChildren() {
			if !cupyScalar(m, c, depth+1) {
				return false
			}
		}
		return true
	case "identifier":
		if v := m.ValueOf(n); v != nil {
			return cupyScalar(m, v, depth+1)
		}
		return false
	case "attribute":
		if cupyHostAttrs[n.ChildByField("attribute").Text()] {
			return true
		}
		q := m.QualifiedName(n)
		name, ok := strings.CutPrefix(q, "numpy.")
		return ok && cupyNumpyConstants[name]
	case "subscript":
		return cupyScalar(m, n.ChildByField("value"), depth+1)
	case "call":
		switch m.CalleeName(n) {
		case "len", "int", "float", "round":
			return true
		}
	}
	return false
}

// cupyNumpyConstants are numpy attributes CuPy accepts as arguments.
var cupyNumpyConstants = map[string]bool{
	"float16": true, "float32": true, "float64": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "bool_": true,
	"complex64": true, "complex128": true, "pi": true, "e": true, "inf": true, "nan": true,
	"newaxis": true,
}

// fix returns the plan's code action, nil when it has none.
func (pl *cupyPlan) fix() *rewrite.Fix {
	if pl.failure != "" {
		return nil
	}
	edits := append([]rewrite.Edit(nil), pl.edits...)
	edits = append(edits, pl.wrapEdits()...)
	if pl.failure != "" {
		return nil
	}
	if pl.needsCp {
		imported := false
		for _, c := range pl.p.File.Root.Children {
			imported = imported || c.Is("import_statement", "import_from_statement")
		}
		if !imported {
			pl.fail("the file has no top-level import to add cupy's next to")
			return nil
		}
		edits = append(edits, pl.p.Model.InsertAfterImports("import cupy as cp"))
	}
	edits = mergeEdits(edits)
	if edits == nil {
		pl.fail("the edits overlap")
		return nil
	}
	return Fix(rewrite.Hint, "Run this NumPy work with CuPy", edits...)
}

// mergeEdits sorts edits and joins insertions that land where another edit
// starts or ends (so that ApplyEdits gets disjoint edits in a defined
// order); nil when two replacements overlap.
func mergeEdits(edits []rewrite.Edit) []rewrite.Edit {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].Start != edits[j].Start {
			return edits[i].Start < edits[j].Start
		}
		return edits[i].End < edits[j].End // insertions first
	})
	var out []rewrite.Edit
	for _, e := range edits {
		if len(out) > 0 {
			last := &out[len(out)-1]
			switch {
			case e == *last:
				continue
			case e.Start == last.End && (e.Start == e.End || last.Start == last.End):
				last.New += e.New
				last.End = e.End
				continue
			case e.Start < last.End:
				return nil
			}
		}
		out = append(out, e)
	}
	return out
}

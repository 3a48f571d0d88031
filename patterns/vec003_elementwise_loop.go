package patterns

import (
	"sort"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// ElementwiseLoop is VEC003.
var ElementwiseLoop = &Rule{
	Code:      "VEC003",
	Name:      "elementwise-loop",
	Title:     "Replace an element-by-element arithmetic loop with one slice expression",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch", "numpy"},
	Names:     []string{"range"}, // the loop iterates range(n)
	Check:     checkElementwiseLoop,
}

func init() { Register(ElementwiseLoop) }

// vecElementwiseFuncs are the elementwise functions of torch and NumPy
// (qualified names) VEC003 accepts, with their number of positional
// arguments. NumPy ufuncs take an optional `out` as their next positional
// argument, so the arity must match exactly.
var vecElementwiseFuncs = map[string]int{}

func init() {
	unary := []string{"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "abs", "sin", "cos", "tan",
		"sinh", "cosh", "tanh", "floor", "ceil", "trunc", "sign", "square", "reciprocal"}
	for _, f := range unary {
		vecElementwiseFuncs["torch."+f] = 1
		vecElementwiseFuncs["numpy."+f] = 1
	}
	for _, f := range []string{"sigmoid", "rsqrt", "relu", "neg", "erf", "asin", "acos", "atan"} {
		vecElementwiseFuncs["torch."+f] = 1
	}
	for _, f := range []string{"absolute", "negative", "fabs", "arcsin", "arccos", "arctan"} {
		vecElementwiseFuncs["numpy."+f] = 1
	}
	for _, f := range []string{"maximum", "minimum"} {
		vecElementwiseFuncs["torch."+f] = 2
		vecElementwiseFuncs["numpy."+f] = 2
	}
	vecElementwiseFuncs["torch.atan2"] = 2
	vecElementwiseFuncs["numpy.arctan2"] = 2
}

// vecElementwise is what checkElementwiseLoop learns of one loop body.
type vecElementwise struct {
	iv       string          // loop variable
	operands []*rewrite.Node // the `x[i]` subscripts read (target excluded)
	names    map[string]bool // arrays indexed: operands and the target
	libs     map[string]bool // "torch" / "numpy" for the functions called
}

// expr reports whether n is an elementwise expression of arrays indexed by
// the loop variable, recording what it reads.
func (e *vecElementwise) expr(m *rewrite.Model, n *rewrite.Node) bool {
	switch n.Type {
	case "integer", "float":
		return true
	case "parenthesized_expression":
		nc := n.NamedChildren()
		return len(nc) == 1 && e.expr(m, nc[0])
	case "unary_operator":
		op := n.ChildByField("operator")
		return op != nil && (op.Text() == "-" || op.Text() == "+") && e.expr(m, n.ChildByField("argument"))
	case "binary_operator":
		op := n.ChildByField("operator")
		if op == nil {
			return false
		}
		switch op.Text() {
		case "+", "-", "*", "/", "**":
			return e.expr(m, n.ChildByField("left")) && e.expr(m, n.ChildByField("right"))
		}
		return false
	case "subscript":
		if !vecIndexedByLoopVar(n, e.iv) {
			return false
		}
		v := n.ChildByField("value")
		e.operands = append(e.operands, n)
		e.names[v.Text()] = true
		return true
	case "identifier":
		if n.Text() == e.iv {
			return false
		}
		return vecNumericConstant(m, n)
	case "call":
		q := m.CalleeName(n)
		arity, ok := vecElementwiseFuncs[q]
		if !ok || rewrite.HasSplat(n) {
			return false
		}
		args := n.ChildByField("arguments")
		if args == nil || args.Type != "argument_list" {
			return false
		}
		pos := args.NamedChildren()
		if len(pos) != arity || len(rewrite.PositionalArgs(n)) != arity {
			return false
		}
		e.libs[strings.SplitN(q, ".", 2)[0]] = true
		for _, a := range pos {
			if !e.expr(m, a) {
				return false
			}
		}
		return true
	}
	return false
}

// vecIndexedByLoopVar reports `name[iv]`: a plain name indexed by exactly
// the loop variable.
func vecIndexedByLoopVar(n *rewrite.Node, iv string) bool {
	v := n.ChildByField("value")
	idx := n.NamedChildren()
	return v != nil && v.Type == "identifier" && v.Text() != iv && len(idx) == 2 && idx[0] == v &&
		idx[1].Type == "identifier" && idx[1].Text() == iv
}

// vecNumericConstant reports a name every binding of which is a numeric
// literal (`alpha = 0.5`), so that it is a scalar in both forms.
func vecNumericConstant(m *rewrite.Model, ident *rewrite.Node) bool {
	bs := m.Bindings(ident)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if b.Kind != rewrite.AssignBinding || b.Value == nil {
			return false
		}
		v := b.Value
		if v.Type == "unary_operator" {
			v = v.ChildByField("argument")
		}
		if v == nil || !v.Is("integer", "float") {
			return false
		}
	}
	return true
}

// vecRangeBound returns n of `range(n)` / `range(0, n)` when n is cheap
// and free of effects to evaluate again: a name, an attribute chain, a
// non-negative integer, `len(name)`, `name.shape[k]` or `name.size(k)`.
func vecRangeBound(m *rewrite.Model, right *rewrite.Node) *rewrite.Node {
	if m.CalleeName(right) != "range" || rewrite.HasSplat(right) {
		return nil
	}
	args := right.ChildByField("arguments")
	if args == nil || args.Type != "argument_list" {
		return nil
	}
	pos := args.NamedChildren()
	if len(pos) != len(rewrite.PositionalArgs(right)) {
		return nil
	}
	var n *rewrite.Node
	switch {
	case len(pos) == 1:
		n = pos[0]
	case len(pos) == 2 && pos[0].Type == "integer" && pos[0].Text() == "0":
		n = pos[1]
	default:
		return nil
	}
	switch n.Type {
	case "identifier", "attribute":
		if vecPureName(n) {
			return n
		}
	case "integer":
		return n
	case "call":
		a := rewrite.PositionalArgs(n)
		fn := n.ChildByField("function")
		if m.CalleeName(n) == "len" && len(a) == 1 && vecPureName(a[0]) && !rewrite.HasSplat(n) {
			return n
		}
		if fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "size" &&
			vecPureName(fn.ChildByField("object")) && len(a) == 1 && a[0].Type == "integer" && !rewrite.HasSplat(n) {
			return n
		}
	case "subscript":
		v := n.ChildByField("value")
		idx := n.NamedChildren()
		if v != nil && v.Type == "attribute" && v.ChildByField("attribute").Text() == "shape" &&
			vecPureName(v) && len(idx) == 2 && idx[1].Type == "integer" {
			return n
		}
	}
	return nil
}

func checkElementwiseLoop(p *Pass) {
	m := p.Model
	for _, loop := range p.File.OfType("for_statement") {
		left, right := loop.ChildByField("left"), loop.ChildByField("right")
		body := rewrite.LoopBody(loop)
		if left == nil || right == nil || body == nil || left.Type != "identifier" ||
			loop.ChildByField("alternative") != nil || vecIsAsync(loop) {
			continue
		}
		iv := left.Text()
		bound := vecRangeBound(m, right)
		if bound == nil {
			continue
		}
		stmts := rewrite.Statements(body)
		if len(stmts) != 1 || stmts[0].Type != "expression_statement" || len(stmts[0].NamedChildren()) != 1 {
			continue
		}
		a := stmts[0].NamedChildren()[0]
		switch a.Type {
		case "assignment":
			if a.ChildByField("type") != nil {
				continue
			}
		case "augmented_assignment":
			switch a.ChildByField("operator").Text() {
			case "+=", "-=", "*=", "/=":
			default:
				continue
			}
		default:
			continue
		}
		target, value := a.ChildByField("left"), a.ChildByField("right")
		if target == nil || value == nil || target.Type != "subscript" || !vecIndexedByLoopVar(target, iv) {
			continue
		}
		out := target.ChildByField("value")
		e := &vecElementwise{iv: iv, names: map[string]bool{out.Text(): true}, libs: map[string]bool{}}
		if !e.expr(m, value) || len(e.operands) == 0 {
			continue
		}
		// The loop variable is read only as the indices; it is not needed
		// after the loop, and the bound does not mention it.
		if vecCountReads(m, loop, iv) != len(e.operands)+1 || vecLoopTargetEscapes(m, loop, left) {
			continue
		}
		if !vecArraysAgree(m, loop, out, e) {
			continue
		}
		newText := vecRenderElementwise(p.File, a, bound, iv)
		msg := "this loop computes one element per iteration: compute all of them at once (" + newText + ")"
		vecReplaceLoop(p, loop, right, msg, "Vectorise the elementwise loop", newText)
	}
}

// vecArraysAgree checks the arrays a loop reads and writes: each is
// evidently a tensor or an array of one library, matching the functions
// called; none is bound to a view of another; their ranks and (tensor)
// devices are not known to differ.
func vecArraysAgree(m *rewrite.Model, loop, out *rewrite.Node, e *vecElementwise) bool {
	idents := []*rewrite.Node{out}
	for _, s := range e.operands {
		idents = append(idents, s.ChildByField("value"))
	}
	tensors := 0
	for _, id := range idents {
		if !m.IsArrayExpr(id) {
			return false
		}
		if m.IsTensorExpr(id) {
			tensors++
		}
	}
	torchLib := tensors == len(idents)
	if !torchLib && tensors > 0 {
		return false // torch tensors mixed with NumPy arrays
	}
	if (e.libs["torch"] && !torchLib) || (e.libs["numpy"] && torchLib) {
		return false
	}
	rank, device := -1, ""
	for _, id := range idents {
		for _, b := range m.Bindings(id) {
			if b.Value == nil {
				continue
			}
			if root := rewrite.RootName(b.Value); root != nil && root.Text() != id.Text() && e.names[root.Text()] && !vecFreshCopy(b.Value) {
				return false // a view of another array of the loop
			}
		}
		if r, ok := vecRank(m, id, 0); ok {
			if rank >= 0 && r != rank {
				return false
			}
			rank = r
		}
		if torchLib {
			if d := vecPlacement(m, id); d != "" {
				if device != "" && d != device {
					return false
				}
				device = d
			}
		}
	}
	return true
}

// vecFreshCopy reports `x.clone()` / `x.copy()`: a new array, not a view.
func vecFreshCopy(v *rewrite.Node) bool {
	if v.Type != "call" {
		return false
	}
	fn := v.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return false
	}
	switch fn.ChildByField("attribute").Text() {
	case "clone", "copy":
		return true
	}
	return false
}

// vecShapeFactories are factories whose positional arguments (or one
// tuple/list argument) give the shape.
var vecShapeFactories = map[string]bool{
	"torch.zeros": true, "torch.ones": true, "torch.empty": true, "torch.rand": true, "torch.randn": true,
	"numpy.zeros": true, "numpy.ones": true, "numpy.empty": true, "numpy.random.rand": true, "numpy.random.randn": true,
}

// vecRank returns the number of dimensions of the array ident names when
// its one binding makes it evident: a factory with a literal shape, a 1-D
// range, a nested list literal, or `*_like(other)`.
func vecRank(m *rewrite.Model, ident *rewrite.Node, depth int) (int, bool) {
	if depth > 4 || ident == nil || ident.Type != "identifier" {
		return 0, false
	}
	b := m.Binding(ident)
	if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" || rewrite.HasSplat(b.Value) {
		return 0, false
	}
	v := b.Value
	q := m.CalleeName(v)
	pos := rewrite.PositionalArgs(v)
	switch {
	case vecShapeFactories[q]:
		if len(pos) == 1 && pos[0].Is("tuple", "list") {
			return len(pos[0].NamedChildren()), true
		}
		if len(pos) > 0 && (strings.HasPrefix(q, "torch.") || strings.HasPrefix(q, "numpy.random.") || len(pos) == 1) {
			for _, a := range pos {
				if a.Is("tuple", "list") {
					return 0, false
				}
			}
			return len(pos), true
		}
	case q == "torch.full" || q == "numpy.full":
		if len(pos) > 0 && pos[0].Is("tuple", "list") {
			return len(pos[0].NamedChildren()), true
		}
	case q == "torch.randint":
		if len(pos) > 0 && pos[len(pos)-1].Is("tuple", "list") {
			return len(pos[len(pos)-1].NamedChildren()), true
		}
	case q == "torch.arange" || q == "torch.linspace" || q == "numpy.arange" || q == "numpy.linspace":
		return 1, true
	case q == "torch.tensor" || q == "numpy.array" || q == "numpy.asarray":
		if len(pos) > 0 && pos[0].Type == "list" {
			r := 0
			for n := pos[0]; n != nil && n.Type == "list"; {
				r++
				c := n.NamedChildren()
				if len(c) == 0 {
					break
				}
				n = c[0]
			}
			return r, true
		}
	case strings.HasSuffix(q, "_like") && (strings.HasPrefix(q, "torch.") || strings.HasPrefix(q, "numpy.")):
		if len(pos) > 0 {
			return vecRank(m, pos[0], depth+1)
		}
	}
	return 0, false
}

// vecPlacement says where a tensor name's one binding puts it: "cuda",
// "cpu" (a torch factory without device= and no move), or "" unknown.
func vecPlacement(m *rewrite.Model, ident *rewrite.Node) string {
	b := m.Binding(ident)
	if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
		return ""
	}
	v := b.Value
	if _, ok, _ := m.MoveTarget(v); ok {
		switch m.MoveKind(v) {
		case rewrite.DeviceCUDA:
			return "cuda"
		case rewrite.DeviceOther:
			return "" // "cpu", "mps", ... : not told apart here
		}
		return ""
	}
	q := m.CalleeName(v)
	if !strings.HasPrefix(q, "torch.") || rewrite.HasSplat(v) {
		return ""
	}
	if d := rewrite.KeywordValue(v, "device"); d != nil {
		if m.DeviceOf(d) == rewrite.DeviceCUDA {
			return "cuda"
		}
		return ""
	}
	if vecShapeFactories[q] || q == "torch.full" || q == "torch.randint" || q == "torch.arange" || q == "torch.linspace" || q == "torch.tensor" {
		if !vecDefaultDeviceSet(m) {
			return "cpu"
		}
	}
	return ""
}

// vecDefaultDeviceSet reports a call of torch.set_default_device anywhere
// in the file: factories without device= may then not be on the CPU.
func vecDefaultDeviceSet(m *rewrite.Model) bool {
	return len(m.CallsTo("torch.set_default_device")) > 0
}

// vecLoopTargetEscapes reports whether the loop variable may be read after
// the loop: any occurrence of it outside the loop in the same scope counts,
// except inside the body of another `for <same name> in ...` loop of that
// scope (which rebinds it first) and the binding targets of such loops.
func vecLoopTargetEscapes(m *rewrite.Model, loop, target *rewrite.Node) bool {
	s := m.VarScope(target)
	if s == nil || s != m.ScopeOf(loop) {
		return true
	}
	name := target.Text()
	for _, id := range m.OutsideOccurrences(s, name, loop) {
		if !vecRebindingLoopCovers(m, id, name, s) {
			return true
		}
	}
	return false
}

// vecRebindingLoopCovers reports whether id is the target of, or lies in
// the body of, a `for name in ...` loop whose target is exactly name, in
// scope s (the read then sees that loop's value, not an earlier one).
func vecRebindingLoopCovers(m *rewrite.Model, id *rewrite.Node, name string, s *rewrite.Scope) bool {
	if m.ScopeOf(id) != s {
		return false // a nested function or comprehension: runs who knows when
	}
	for n := id.Parent; n != nil && n != s.Node; n = n.Parent {
		if n.Type != "for_statement" {
			continue
		}
		l := n.ChildByField("left")
		if l == nil || l.Type != "identifier" || l.Text() != name {
			continue
		}
		if l == id {
			return true
		}
		if b := rewrite.LoopBody(n); b != nil && b.Contains(id) {
			return true
		}
	}
	return false
}

// vecRenderElementwise writes the loop's one assignment with every index
// `[iv]` replaced by `[:bound]`; an operand that is the very array of
// `range(len(x))` is written whole.
func vecRenderElementwise(f *rewrite.File, a *rewrite.Node, bound *rewrite.Node, iv string) string {
	whole := ""
	if bound.Type == "call" {
		if args := rewrite.PositionalArgs(bound); len(args) == 1 && args[0].Type == "identifier" && bound.ChildByField("function").Text() == "len" {
			whole = args[0].Text()
		}
	}
	type repl struct {
		start, end int
		text       string
	}
	var rs []repl
	target := a.ChildByField("left")
	a.Walk(func(n *rewrite.Node) bool {
		if n.Type == "subscript" && vecIndexedByLoopVar(n, iv) {
			v := n.ChildByField("value")
			if n != target && v.Text() == whole {
				rs = append(rs, repl{n.Start, n.End, whole})
			} else {
				idx := n.NamedChildren()[1]
				rs = append(rs, repl{idx.Start, idx.End, ":" + bound.Text()})
			}
			return false
		}
		return true
	})
	sort.Slice(rs, func(i, j int) bool { return rs[i].start < rs[j].start })
	var sb strings.Builder
	pos := a.Start
	for _, r := range rs {
		sb.WriteString(f.Src.Text(pos, r.start))
		sb.WriteString(r.text)
		pos = r.end
	}
	sb.WriteString(f.Src.Text(pos, a.End))
	return sb.String()
}

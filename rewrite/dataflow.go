package rewrite

import (
	"sort"
	"strings"
)

// Dataflow helpers for rules that move work across statements: who reads a
// variable inside or after a loop, what a loop body writes, whether a value
// flows from one iteration to the next, and whether names bound in a loop
// are needed after it. They work on one scope's variables and answer
// conservatively: "unknown" shows up as a read, a write or an escape.

// LoopBody returns the body block of a for or while statement.
func LoopBody(loop *Node) *Node {
	if loop == nil {
		return nil
	}
	return loop.ChildByField("body")
}

// IsRead reports whether ident is a read of a variable (not an attribute
// name, a keyword name or a binding target).
func (m *Model) IsRead(ident *Node) bool {
	return m.readOf(ident) >= 0
}

// VarScope returns the scope owning the variable ident names, or nil when
// the name is unbound (a builtin) or bound in several scopes' ways that the
// model cannot tell apart.
func (m *Model) VarScope(ident *Node) *Scope {
	if ident == nil || ident.Type != "identifier" {
		return nil
	}
	bs := m.lookup(m.ScopeOf(ident), ident.Text())
	if len(bs) == 0 {
		return nil
	}
	return bs[0].Scope
}

// isBindingIdent reports whether ident is the identifier a binding binds.
func (m *Model) isBindingIdent(ident *Node) bool {
	s := m.VarScope(ident)
	if s == nil {
		return false
	}
	for _, b := range s.Bindings[ident.Text()] {
		if b.Ident == ident {
			return true
		}
	}
	return false
}

// Occurrences returns every identifier in region (nested scopes included)
// that reads or binds the variable name of scope s, in source order.
func (m *Model) Occurrences(s *Scope, name string, region *Node) []*Node {
	if region == nil {
		return nil
	}
	var out []*Node
	for _, n := range m.identsIn(name, region) {
		if (m.IsRead(n) || m.isBindingIdent(n)) && m.VarScope(n) == s {
			out = append(out, n)
		}
	}
	return out
}

// identsIn returns the identifiers spelled name inside region, in source
// order: a binary search into the per-name index instead of a tree walk.
func (m *Model) identsIn(name string, region *Node) []*Node {
	ids := m.File.Identifiers(name)
	lo := sort.Search(len(ids), func(i int) bool { return ids[i].Start >= region.Start })
	hi := lo
	for hi < len(ids) && ids[hi].End <= region.End {
		hi++
	}
	return ids[lo:hi]
}

// Reads returns the reads of variable name of scope s inside region.
// The result is shared between callers: append to it, never assign into it.
func (m *Model) Reads(s *Scope, name string, region *Node) []*Node {
	key := readsKey{s, name, region}
	if out, ok := m.readsCache[key]; ok {
		return out
	}
	var out []*Node
	for _, id := range m.Occurrences(s, name, region) {
		if m.IsRead(id) {
			out = append(out, id)
		}
	}
	out = out[:len(out):len(out)] // an append by a caller copies
	if m.readsCache == nil {
		m.readsCache = map[readsKey][]*Node{}
	}
	m.readsCache[key] = out
	return out
}

// ReadsAny reports whether region reads variable name of scope s: whether
// Reads would return any, without building (and caching) the list, for
// the callers that ask it of many small regions once each.
func (m *Model) ReadsAny(s *Scope, name string, region *Node) bool {
	if region == nil {
		return false
	}
	for _, n := range m.identsIn(name, region) {
		if m.IsRead(n) && m.VarScope(n) == s {
			return true
		}
	}
	return false
}

// ReadsAfter returns the reads of variable name of scope s that start at or
// after offset off (anywhere in the file, nested scopes included).
func (m *Model) ReadsAfter(s *Scope, name string, off int) []*Node {
	var out []*Node
	for _, id := range m.Reads(s, name, m.File.Root) {
		if id.Start >= off {
			out = append(out, id)
		}
	}
	return out
}

// OutsideOccurrences returns the occurrences of variable name of scope s
// that are not inside region.
func (m *Model) OutsideOccurrences(s *Scope, name string, region *Node) []*Node {
	var out []*Node
	for _, id := range m.Occurrences(s, name, m.File.Root) {
		if !region.Contains(id) {
			out = append(out, id)
		}
	}
	return out
}

// BoundNames returns the variables (name -> scope) that statements in
// region bind in region's own scope: assignment targets, for targets, with
// aliases, walrus targets, augmented assignments, defs and imports.
func (m *Model) BoundNames(region *Node) map[string]*Scope {
	out := map[string]*Scope{}
	region.Walk(func(n *Node) bool {
		if n != region && n.Is("function_definition", "class_definition", "lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression") {
			if name := n.ChildByField("name"); name != nil {
				out[name.Text()] = m.VarScope(name)
			}
			return false
		}
		if n.Type == "identifier" && m.isBindingIdent(n) {
			out[n.Text()] = m.VarScope(n)
		}
		return true
	})
	return out
}

// LoopVarEscapes reports whether a name the loop binds (its targets or
// any variable assigned in its body) is used outside the loop in the same
// scope: removing or vectorising the loop would then change what that
// code sees. Globals and nonlocals count as escaping.
func (m *Model) LoopVarEscapes(loop *Node) bool {
	own := m.ScopeOf(loop)
	for name, s := range m.BoundNames(loop) {
		if s == nil || s != own {
			return true
		}
		if len(m.OutsideOccurrences(s, name, loop)) > 0 {
			return true
		}
	}
	return false
}

// StoreBase returns the variable at the root of an assignment target such
// as `out[i]`, `out[i][j]` or `self.buf[i]` ("out", "self"), or nil.
func StoreBase(target *Node) *Node { return rootVariable(target, true, false) }

// rootVariable walks from n down attribute chains (and, when asked,
// subscripts and parentheses, and method calls) to the identifier at the
// root, or returns nil at anything else.
func rootVariable(n *Node, subscripts, methodCalls bool) *Node {
	for n != nil {
		switch {
		case n.Type == "identifier":
			return n
		case n.Type == "attribute":
			n = n.ChildByField("object")
		case subscripts && n.Type == "subscript":
			n = n.ChildByField("value")
		case subscripts && n.Type == "parenthesized_expression":
			nc := n.NamedChildren()
			if len(nc) != 1 {
				return nil
			}
			n = nc[0]
		case methodCalls && n.Type == "call":
			fn := n.ChildByField("function")
			if fn == nil || fn.Type != "attribute" {
				return nil
			}
			n = fn.ChildByField("object")
		default:
			return nil
		}
	}
	return nil
}

// mutatingMethods are list, dict, set and tensor methods that change their
// receiver; tensor methods ending in "_" are in-place too.
var mutatingMethods = map[string]bool{
	"append": true, "extend": true, "insert": true, "pop": true, "remove": true, "clear": true,
	"update": true, "setdefault": true, "add": true, "discard": true, "sort": true, "reverse": true,
	"popitem": true, "copy_": true, "fill_": true, "zero_": true, "put_": true, "index_put_": true,
	"scatter_": true, "resize_": true, "set_": true,
}

// MutatedNames returns the names (identifier text) whose objects statements
// in region change: rebinding, augmented assignment, stores through a
// subscript or attribute (`out[i] = ...` mutates out), `del x[...]`, and
// calls of mutating methods (`xs.append(...)`, `t.add_(...)`). Names are
// compared by text: callers use it to prove the absence of effects.
func MutatedNames(region *Node) map[string]bool {
	out := map[string]bool{}
	markTarget := func(t *Node) {
		if t == nil {
			return
		}
		t.Walk(func(n *Node) bool {
			switch n.Type {
			case "identifier":
				if n.Field != "attribute" {
					out[n.Text()] = true
				}
				return false
			case "subscript", "attribute":
				if b := StoreBase(n); b != nil {
					out[b.Text()] = true
				}
				return false
			}
			return true
		})
	}
	region.Walk(func(n *Node) bool {
		switch n.Type {
		case "assignment", "augmented_assignment":
			markTarget(n.ChildByField("left"))
		case "for_statement", "for_in_clause":
			markTarget(n.ChildByField("left"))
		case "delete_statement":
			for _, c := range n.NamedChildren() {
				markTarget(c)
			}
		case "named_expression":
			markTarget(n.ChildByField("name"))
		case "as_pattern":
			markTarget(n.ChildByField("alias"))
		case "call":
			fn := n.ChildByField("function")
			if fn != nil && fn.Type == "attribute" {
				attr := fn.ChildByField("attribute").Text()
				if mutatingMethods[attr] || (strings.HasSuffix(attr, "_") && !strings.HasPrefix(attr, "_")) {
					if b := StoreBase(fn.ChildByField("object")); b != nil {
						out[b.Text()] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// ReadNames returns the names (identifier text) read in region.
func (m *Model) ReadNames(region *Node) map[string]bool {
	out := map[string]bool{}
	region.Walk(func(n *Node) bool {
		if n.Type == "identifier" && m.IsRead(n) {
			out[n.Text()] = true
		}
		return true
	})
	return out
}

// LoopCarried reports whether a value may flow from one iteration of the
// loop to the next: a name the body mutates in place (a subscript store,
// an in-place method, an augmented assignment) that the body also reads
// other than as that store's target, or a name the body rebinds that is
// read before its first binding in the body (a recurrence such as
// `acc = acc + x`). Loop targets are fresh every iteration.
func (m *Model) LoopCarried(loop *Node) bool {
	body := LoopBody(loop)
	if body == nil {
		return true
	}
	targets := map[string]bool{}
	if loop.Type == "for_statement" {
		if l := loop.ChildByField("left"); l != nil {
			l.Walk(func(n *Node) bool {
				if n.Type == "identifier" {
					targets[n.Text()] = true
				}
				return true
			})
		}
	}
	// In-place writes: the written object is read elsewhere in the body.
	storeBases := map[*Node]bool{}
	inplace := map[string]bool{}
	augmented := false
	body.Walk(func(n *Node) bool {
		switch n.Type {
		case "assignment", "augmented_assignment":
			l := n.ChildByField("left")
			if l != nil && l.Type != "identifier" {
				if b := StoreBase(l); b != nil {
					storeBases[b] = true
					inplace[b.Text()] = true
				}
			}
			if n.Type == "augmented_assignment" {
				augmented = true // reads the previous value: an accumulator
			}
		case "call":
			fn := n.ChildByField("function")
			if fn != nil && fn.Type == "attribute" {
				attr := fn.ChildByField("attribute").Text()
				if mutatingMethods[attr] || (strings.HasSuffix(attr, "_") && !strings.HasPrefix(attr, "_")) {
					if b := StoreBase(fn.ChildByField("object")); b != nil {
						storeBases[b] = true
						inplace[b.Text()] = true
					}
				}
			}
		}
		return true
	})
	carried := augmented
	body.Walk(func(n *Node) bool {
		if carried {
			return false
		}
		if n.Type == "identifier" && m.IsRead(n) && inplace[n.Text()] && !storeBases[n] {
			carried = true
		}
		return true
	})
	if carried {
		return true
	}
	// Rebinding: a name read before the body first binds it (plain
	// identifiers; stores through subscripts were handled above).
	bound := func(stmt *Node) map[string]bool {
		out := map[string]bool{}
		stmt.Walk(func(n *Node) bool {
			if n != stmt && n.Is("function_definition", "class_definition", "lambda") {
				return false
			}
			if n.Type == "identifier" && m.isBindingIdent(n) {
				out[n.Text()] = true
			}
			return true
		})
		return out
	}
	seenBound := map[string]bool{}
	stmts := Statements(body)
	for i, stmt := range stmts {
		reads := map[string]bool{}
		stmt.Walk(func(n *Node) bool {
			if n.Type == "identifier" && m.IsRead(n) && !storeBases[n] {
				reads[n.Text()] = true
			}
			return true
		})
		b := bound(stmt)
		for name := range b {
			if reads[name] && !seenBound[name] && !targets[name] {
				return true
			}
		}
		if stmt.Type != "expression_statement" {
			// A binding under a condition or in a nested loop may leave a
			// later read seeing an earlier iteration's value.
			for name := range b {
				for _, later := range stmts[i+1:] {
					if m.ReadNames(later)[name] {
						return true
					}
				}
			}
		}
		for name := range b {
			seenBound[name] = true
		}
	}
	// Any name mutated in the body that the loop header reads.
	if loop.Type == "for_statement" {
		if r := loop.ChildByField("right"); r != nil {
			muts := MutatedNames(body)
			for name := range m.ReadNames(r) {
				if muts[name] {
					return true
				}
			}
		}
	}
	return false
}

// IsArrayExpr reports whether expr evidently evaluates to a torch tensor or
// a NumPy/CuPy array: the result of a torch/numpy/cupy call, of a model
// forward, of a tensor method or operator on such a value, indexing one,
// a name assigned such a value (once, or every time), or a parameter
// annotated `Tensor` / `ndarray`. Unknown is false.
func (m *Model) IsArrayExpr(expr *Node) bool {
	return m.isArrayExpr(expr, []string{"torch.", "numpy.", "cupy."}, 0)
}

// IsTensorExpr is IsArrayExpr for torch tensors only (NumPy and CuPy
// values excluded): values with .detach(), .cpu() and friends.
func (m *Model) IsTensorExpr(expr *Node) bool {
	return m.isArrayExpr(expr, []string{"torch."}, 0)
}

func (m *Model) isArrayExpr(expr *Node, prefixes []string, depth int) bool {
	if expr == nil || depth > 8 {
		return false
	}
	switch expr.Type {
	case "parenthesized_expression":
		nc := expr.NamedChildren()
		return len(nc) == 1 && m.isArrayExpr(nc[0], prefixes, depth+1)
	case "call":
		q := m.CalleeName(expr)
		for _, p := range prefixes {
			if strings.HasPrefix(q, p) {
				switch q {
				case "torch.device", "torch.no_grad", "torch.inference_mode", "torch.autocast", "torch.Size", "numpy.dtype":
					return false
				}
				if strings.HasPrefix(q, "torch.nn.functional.") {
					return true // F.cross_entropy(...) and friends return tensors
				}
				if strings.HasPrefix(q, "torch.nn.") || strings.HasPrefix(q, "torch.optim.") || strings.HasPrefix(q, "torch.utils.") || strings.HasPrefix(q, "torch.cuda.") {
					return false
				}
				return true
			}
		}
		fn := expr.ChildByField("function")
		if m.IsModule(fn) {
			return true
		}
		if fn != nil && fn.Type == "attribute" {
			switch fn.ChildByField("attribute").Text() {
			case "tolist", "item", "size", "dim", "numel", "data_ptr", "element_size", "stride", "is_contiguous", "get_device", "storage", "untyped_storage":
				return false
			}
			return m.isArrayExpr(fn.ChildByField("object"), prefixes, depth+1)
		}
	case "subscript":
		return m.isArrayExpr(expr.ChildByField("value"), prefixes, depth+1)
	case "binary_operator", "comparison_operator":
		for _, c := range expr.NamedChildren() {
			if m.isArrayExpr(c, prefixes, depth+1) {
				return true
			}
		}
	case "unary_operator":
		return m.isArrayExpr(expr.ChildByField("argument"), prefixes, depth+1)
	case "attribute":
		switch expr.ChildByField("attribute").Text() {
		case "T", "mT", "H", "real", "imag", "data", "grad", "loss", "logits", "last_hidden_state":
			return m.isArrayExpr(expr.ChildByField("object"), prefixes, depth+1)
		}
	case "identifier":
		bs := m.Bindings(expr)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			switch b.Kind {
			case AssignBinding:
				if b.Value == nil || !m.isArrayExpr(b.Value, prefixes, depth+1) {
					return false
				}
			case ParamBinding:
				if !annotatedArray(b.Ident, len(prefixes) == 1) {
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

// annotatedArray reports whether a parameter identifier is annotated as a
// tensor or an array (`x: torch.Tensor`, `x: Tensor`, `x: np.ndarray`).
func annotatedArray(ident *Node, torchOnly bool) bool {
	p := ident.Parent
	if p == nil || !p.Is("typed_parameter", "typed_default_parameter") {
		return false
	}
	t := p.ChildByField("type")
	if t == nil {
		return false
	}
	s := strings.TrimSpace(t.Text())
	suffixes := []string{"Tensor", "ndarray"}
	if torchOnly {
		suffixes = suffixes[:1]
	}
	for _, suffix := range suffixes {
		if s == suffix || strings.HasSuffix(s, "."+suffix) {
			return true
		}
	}
	return false
}

// InPlaceMutated reports whether region changes the object bound to name in
// place: `name[...] = ...`, `name.attr = ...`, `name += ...` (in place for
// tensors and lists), `del name[...]`, or a mutating method call
// (`name.append(...)`, `name.add_(...)`).
func InPlaceMutated(region *Node, name string) bool {
	found := false
	region.Walk(func(n *Node) bool {
		if found {
			return false
		}
		switch n.Type {
		case "assignment", "augmented_assignment":
			l := n.ChildByField("left")
			if l == nil {
				break
			}
			if l.Type == "identifier" {
				if n.Type == "augmented_assignment" && l.Text() == name {
					found = true
				}
				break
			}
			l.Walk(func(t *Node) bool {
				if t.Is("subscript", "attribute") {
					if b := StoreBase(t); b != nil && b.Text() == name {
						found = true
					}
					return false
				}
				return true
			})
		case "delete_statement":
			for _, c := range n.NamedChildren() {
				if b := StoreBase(c); b != nil && b.Text() == name && c.Type != "identifier" {
					found = true
				}
			}
		case "call":
			fn := n.ChildByField("function")
			if fn != nil && fn.Type == "attribute" {
				attr := fn.ChildByField("attribute").Text()
				if mutatingMethods[attr] || (strings.HasSuffix(attr, "_") && !strings.HasPrefix(attr, "_")) {
					if b := StoreBase(fn.ChildByField("object")); b != nil && b.Text() == name {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// RootName returns the variable an expression is computed from through a
// chain of method calls, attributes and subscripts (`outputs` for
// `outputs.logits[:, 0].float()`), or nil.
func RootName(expr *Node) *Node { return rootVariable(expr, true, true) }

// FreshPerIteration reports whether the variable ident names is bound anew
// in every iteration of loop: it is the loop's own target, or every binding
// of it is a plain assignment at the top level of the loop body (not under
// a condition). Values bound that way are new objects each step unless the
// body mutates them in place, which callers check with InPlaceMutated.
func (m *Model) FreshPerIteration(ident *Node, loop *Node) bool {
	s := m.VarScope(ident)
	body := LoopBody(loop)
	if s == nil || body == nil || s != m.ScopeOf(loop) {
		return false
	}
	bs := s.Bindings[ident.Text()]
	if len(bs) == 0 {
		return false
	}
	inLoop := 0
	for _, b := range bs {
		if !loop.Contains(b.Ident) {
			continue
		}
		inLoop++
		switch {
		case b.Kind == LoopBinding && b.Stmt == loop:
		case b.Kind == AssignBinding && b.Stmt.Parent != nil && b.Stmt.Parent.Parent == body:
		default:
			return false
		}
	}
	return inLoop > 0
}

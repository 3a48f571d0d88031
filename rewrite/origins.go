package rewrite

import (
	"path/filepath"
	"slices"
	"strings"
)

// Value sources: where the value of an expression comes from, across
// assignments, conditionals, `self.` attributes, the returns of functions
// in the file, the arguments of every call site of a function, and the
// definitions of sibling modules of the project. This is the
// language-generic half of the fact layer: it knows Python, not libraries.
// patterns/facts.go asks it and applies what it knows of PyTorch, XGBoost
// and friends to the sources it gets back.

// Confidence says how sure a fact is.
type Confidence int

// Confidences, weakest first.
const (
	// Unknown: nothing is known.
	Unknown Confidence = iota
	// Likely: a reasonable reading of the code (a call site's argument, a
	// parameter recognised by how it is used), not a certainty.
	Likely
	// Certain: the code says so (a constructor assigned to the name).
	Certain
)

func (c Confidence) String() string {
	switch c {
	case Certain:
		return "certain"
	case Likely:
		return "likely"
	}
	return "unknown"
}

// Origin is one expression a value may come from.
type Origin struct {
	// Expr is the producing expression in this file: a call, a literal, a
	// parameter's annotation, an unresolved name. Nil when Def is set.
	Expr *Node
	// Def is a definition in a sibling module of the project the value
	// comes from: an instance of that class, or what that function
	// returns. Call is the call of it in this file.
	Def  *ProjectDef
	Call *Node
	// Param is the parameter identifier the value arrived through, when it
	// did (Expr is then an argument of a call site, a default value or an
	// annotation, or nil when nothing is known of the parameter).
	Param *Node
	// Annotation: Expr is the parameter's type annotation, not a value.
	Annotation bool
	// Index is the position of the name in a tuple target (`a, b = f()`:
	// b's source is the call with Index 1); -1 when the whole value.
	Index int
	// Via says how the value got here, for messages ("returned by
	// make_loader()", "argument of train() at line 40").
	Via string
	// Confidence is Certain for assignments, returns and attributes, and
	// Likely where the value came through a call site's argument.
	Confidence Confidence
	// Model is the model of the module Expr (or Call) is in when that is
	// another module of the project (OriginsAcross); nil for this file.
	// Ask it, never this file's model, about Expr's names.
	Model *Model
	// Across: the value crossed a module boundary on its way here (a call
	// site in another module, a function of another module's returns).
	Across bool
}

// sourceWalk carries one Sources query.
type sourceWalk struct {
	m       *Model
	out     []Origin
	visited []*Node
	// home is the model the query started in; across lets the walk
	// follow parameters to call sites in other modules and calls of
	// imported functions into their bodies (OriginsAcross); crossed says
	// the walk is past a module boundary now.
	home    *Model
	across  bool
	crossed bool
}

// maxSources bounds a query: a name with more sources than this is
// treated as known only by the first ones.
const maxSources = 32

// Origins returns the expressions expr's value may come from, following
// names to their assignments (every binding of the name in its scope),
// tuple unpacking, conditional expressions (both branches), `self.x` to
// the assignments of `self.x` in any method of the class, calls of
// functions of this file to their returns, calls of names imported from a
// sibling module to its definition (with a project index), parameters to
// the arguments of every call site of the function in this file (and to
// their defaults and annotations). Expressions it cannot see through are
// sources themselves. Calls of methods (`x.to(dev)`) are sources: whether
// a method returns its receiver is library knowledge.
func (m *Model) Origins(expr *Node) []Origin {
	w := &sourceWalk{m: m, home: m}
	w.walk(expr, Certain, "", 0)
	return w.out
}

// OriginsAcross is Origins that also crosses module boundaries within the
// project: a parameter of a module-level function or class of this file
// that no call here passes takes the arguments of its call sites in the
// other modules that import it (ForeignCallSites), and a call of a
// function imported from the project yields that function's returns.
// Origins found in another module carry its Model and are at most Likely.
func (m *Model) OriginsAcross(expr *Node) []Origin {
	w := &sourceWalk{m: m, home: m, across: m.project != nil}
	w.walk(expr, Certain, "", 0)
	return w.out
}

func (w *sourceWalk) add(s Origin) {
	if len(w.out) >= maxSources {
		return
	}
	if s.Model == nil && w.m != w.home {
		s.Model = w.m
	}
	if w.crossed {
		s.Across = true
		s.Confidence = weaker(s.Confidence, Likely)
	}
	w.out = append(w.out, s)
}

// in runs f with the walk in model m (crossed: past a module boundary).
func (w *sourceWalk) in(m *Model, f func()) {
	oldM, oldC := w.m, w.crossed
	w.m, w.crossed = m, true
	f()
	w.m, w.crossed = oldM, oldC
}

// importedReturns walks the returns of a function imported from the
// project that call calls (idx >= 0: the idx-th item of returned tuples),
// reporting whether it found any.
func (w *sourceWalk) importedReturns(d *ProjectDef, idx int, conf Confidence, depth int) bool {
	if !w.across || d == nil || d.Class || idx < 0 && len(d.Returns) == 0 {
		// Nothing its summary knows it returns (tuples it does not
		// summarise): not worth a parse.
		return false
	}
	dm, def := w.home.defNode(d)
	if def == nil || def.Type != "function_definition" {
		return false
	}
	found := false
	w.in(dm, func() {
		for _, r := range ReturnValues(def) {
			if idx < 0 {
				found = true
				w.walk(r, conf, "returned by "+d.Name+"() in "+filepath.Base(d.Path), depth+1)
				continue
			}
			if items := r.NamedChildren(); r.Is("expression_list", "tuple") && idx < len(items) {
				found = true
				w.walk(items[idx], conf, "returned by "+d.Name+"() in "+filepath.Base(d.Path), depth+1)
			}
		}
	})
	return found
}

func (w *sourceWalk) seen(n *Node) bool {
	if slices.Contains(w.visited, n) {
		return true
	}
	w.visited = append(w.visited, n)
	return false
}

func weaker(a, b Confidence) Confidence { return min(a, b) }

func (w *sourceWalk) walk(expr *Node, conf Confidence, via string, depth int) {
	if expr == nil || depth > 8 || len(w.out) >= maxSources {
		return
	}
	m := w.m
	switch expr.Type {
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			w.walk(c[0], conf, via, depth+1)
			return
		}
	case "conditional_expression":
		c := expr.NamedChildren()
		if len(c) == 3 {
			w.walk(c[0], conf, via, depth+1)
			w.walk(c[2], conf, via, depth+1)
			return
		}
	case "identifier":
		if w.seen(expr) {
			return
		}
		bs := m.Bindings(expr)
		if len(bs) == 0 || (len(bs) == 1 && bs[0].Kind == ImportBinding) {
			if d := m.importedDef(expr); d != nil {
				w.add(Origin{Def: d, Via: via, Confidence: conf, Index: -1})
				return
			}
			w.add(Origin{Expr: expr, Via: via, Confidence: conf, Index: -1})
			return
		}
		for _, b := range bs {
			w.binding(b, conf, via, depth)
		}
		return
	case "subscript":
		// `self.data_loader['train']`, written by an item assignment of a
		// dict kept on self (or bound to a name).
		if vals := m.ItemValues(expr); vals != nil {
			for _, v := range vals {
				w.walk(v, conf, via, depth+1)
			}
			return
		}
	case "attribute":
		if vals := m.SelfAttrValues(expr); vals != nil {
			for _, v := range vals {
				w.walk(v, conf, via, depth+1)
			}
			return
		}
	case "call":
		fn := expr.ChildByField("function")
		if def := m.CalledDef(expr); def != nil && !w.seen(def) {
			rets := ReturnValues(def)
			if len(rets) > 0 {
				name := ""
				if n := def.ChildByField("name"); n != nil {
					name = n.Text()
				}
				for _, r := range rets {
					w.walk(r, conf, "returned by "+name+"()", depth+1)
				}
				return
			}
		}
		if fn != nil && (fn.Type == "identifier" || fn.Type == "attribute") {
			if d := m.importedDef(fn); d != nil {
				if w.importedReturns(d, -1, conf, depth) {
					return
				}
				w.add(Origin{Def: d, Call: expr, Via: via, Confidence: conf, Index: -1})
				return
			}
		}
	}
	w.add(Origin{Expr: expr, Via: via, Confidence: conf, Index: -1})
}

// binding adds the sources of one binding of a name.
func (w *sourceWalk) binding(b *Binding, conf Confidence, via string, depth int) {
	m := w.m
	switch b.Kind {
	case AssignBinding:
		if b.Value != nil {
			w.walk(b.Value, conf, via, depth+1)
			return
		}
		// A tuple target: `model, opt = build()` or `a, b = x, y`.
		if b.Stmt != nil && b.Stmt.Type == "assignment" {
			left, right := b.Stmt.ChildByField("left"), b.Stmt.ChildByField("right")
			idx := tupleIndex(left, b.Ident)
			if idx >= 0 && right != nil {
				if items := right.NamedChildren(); right.Is("expression_list", "tuple") && idx < len(items) {
					w.walk(items[idx], conf, via, depth+1)
					return
				}
				if right.Type == "call" {
					if def := m.CalledDef(right); def != nil {
						found := false
						for _, r := range ReturnValues(def) {
							if items := r.NamedChildren(); r.Is("expression_list", "tuple") && idx < len(items) {
								w.walk(items[idx], conf, via, depth+1)
								found = true
							}
						}
						if found {
							return
						}
					}
					if fn := right.ChildByField("function"); fn != nil && fn.Type == "identifier" {
						if w.importedReturns(m.importedDef(fn), idx, conf, depth) {
							return
						}
					}
				}
				if right.Type == "identifier" && w.literalLoopItems(right, idx, conf, via, depth) {
					return // `name, loader = pair` of `for pair in [("train", a), ("valid", b)]:`
				}
				w.add(Origin{Expr: right, Index: idx, Via: via, Confidence: conf})
				return
			}
		}
	case LoopBinding:
		if b.Stmt != nil && b.Stmt.Type == "for_statement" {
			idx := -1 // `for loader in [a, b]:`
			if left := b.Stmt.ChildByField("left"); left != b.Ident {
				idx = tupleIndex(left, b.Ident) // `for name, loader in [("train", a), ("valid", b)]:`
			}
			if (idx >= 0 || b.Stmt.ChildByField("left") == b.Ident) && w.literalItems(b.Stmt.ChildByField("right"), idx, conf, via, depth) {
				return
			}
		}
	case ParamBinding:
		w.param(b, conf, depth)
		return
	case ImportBinding:
		if d := m.importedDef(b.Ident); d != nil {
			w.add(Origin{Def: d, Via: via, Confidence: conf, Index: -1})
			return
		}
	case AugAssignBinding, WithBinding, DefBinding, ClassBinding, OtherBinding:
	}
	w.add(Origin{Expr: b.Ident, Via: via, Confidence: weaker(conf, Likely), Index: -1})
}

// literalItems walks the elements of a list or tuple literal a for loop
// iterates (idx < 0), or the idx-th item of each element when every
// element is a tuple literal; false, walking nothing, for anything else.
func (w *sourceWalk) literalItems(seq *Node, idx int, conf Confidence, via string, depth int) bool {
	if seq == nil || !seq.Is("list", "tuple") || len(seq.NamedChildren()) == 0 {
		return false
	}
	var items []*Node
	for _, e := range seq.NamedChildren() {
		if idx < 0 {
			items = append(items, e)
			continue
		}
		for e.Type == "parenthesized_expression" && len(e.NamedChildren()) == 1 {
			e = e.NamedChildren()[0]
		}
		if !e.Is("tuple", "list") || idx >= len(e.NamedChildren()) {
			return false
		}
		items = append(items, e.NamedChildren()[idx])
	}
	for _, it := range items {
		w.walk(it, conf, via, depth+1)
	}
	return true
}

// literalLoopItems is literalItems for a name bound only by a for loop
// over a literal (`for pair in [("train", a), ("valid", b)]:`), unpacked
// later (`name, loader = pair`).
func (w *sourceWalk) literalLoopItems(name *Node, idx int, conf Confidence, via string, depth int) bool {
	bs := w.m.Bindings(name)
	if len(bs) != 1 || bs[0].Kind != LoopBinding || bs[0].Stmt == nil || bs[0].Stmt.Type != "for_statement" || bs[0].Stmt.ChildByField("left") != bs[0].Ident {
		return false
	}
	return w.literalItems(bs[0].Stmt.ChildByField("right"), idx, conf, via, depth)
}

// AssignedValue is the expression an assignment binding gives its name:
// the right-hand side of `name = value`, or the matching element of a
// parallel assignment (`loss, acc = loss.item(), acc.item()`); nil when
// the name gets an element of something else (`a, b = f()`).
func AssignedValue(b *Binding) *Node {
	if b == nil || b.Kind != AssignBinding {
		return nil
	}
	if b.Value != nil || b.Stmt == nil || b.Stmt.Type != "assignment" {
		return b.Value
	}
	left, right := b.Stmt.ChildByField("left"), b.Stmt.ChildByField("right")
	if idx := tupleIndex(left, b.Ident); idx >= 0 && right != nil && right.Is("expression_list", "tuple") {
		if items := right.NamedChildren(); idx < len(items) && len(items) == len(left.NamedChildren()) {
			return items[idx]
		}
	}
	return nil
}

// tupleIndex returns the position of ident among the names of a flat
// tuple target (`a, b` / `(a, b)` / `[a, b]`), -1 otherwise.
func tupleIndex(left, ident *Node) int {
	if left == nil || !left.Is("pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple") {
		return -1
	}
	for i, c := range left.NamedChildren() {
		if c == ident {
			return i
		}
		if c.Type != "identifier" {
			return -1
		}
	}
	return -1
}

// param adds the sources of a parameter: the arguments of every call site
// of its function in this file, its default, and its annotation; with none
// of those, the parameter itself (the caller asks how it is used).
func (w *sourceWalk) param(b *Binding, conf Confidence, depth int) {
	m := w.m
	def := b.Stmt
	p := b.Ident.Parent
	if p != nil && p.Is("typed_parameter", "typed_default_parameter") {
		if t := p.ChildByField("type"); t != nil {
			w.add(Origin{Expr: t, Param: b.Ident, Annotation: true, Via: "annotation of " + b.Name, Confidence: conf, Index: -1})
		}
	}
	found := false
	if def != nil && def.Type == "function_definition" && depth < 6 {
		fname := ""
		if n := def.ChildByField("name"); n != nil {
			fname = n.Text()
		}
		for _, call := range m.CallSites(def) {
			if a := ArgumentFor(def, call, b.Ident); a != nil {
				found = true
				line := m.File.Src.LineOf(call.Start) + 1
				w.walk(a, weaker(conf, Likely), "argument of "+fname+"() at line "+itoa(line), depth+1)
			}
		}
	}
	if !found && w.across && !w.crossed && def != nil && depth < 6 {
		// No call here passes it: the calls in the modules that import
		// the function (or class) do.
		for _, fc := range m.ForeignCallSites(def) {
			a := ArgumentFor(def, fc.Call, b.Ident)
			if a == nil {
				continue
			}
			found = true
			line := fc.Model.File.Src.LineOf(fc.Call.Start) + 1
			fname := topLevelName(def)
			w.in(fc.Model, func() {
				w.walk(a, weaker(conf, Likely), "argument of "+fname+"() at "+filepath.Base(fc.Model.File.Src.Path)+":"+itoa(line), depth+1)
			})
		}
	}
	if p != nil && p.Is("default_parameter", "typed_default_parameter") {
		if v := p.ChildByField("value"); v != nil && v.Type != "none" {
			found = true
			w.walk(v, weaker(conf, Likely), "default of "+b.Name, depth+1)
		}
	}
	if !found {
		w.add(Origin{Param: b.Ident, Via: "parameter " + b.Name, Confidence: weaker(conf, Likely), Index: -1})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// ReturnValues returns the values of a function's return statements (not
// those of functions nested in it).
func ReturnValues(def *Node) []*Node {
	body := def.ChildByField("body")
	if body == nil {
		return nil
	}
	var out []*Node
	body.Walk(func(n *Node) bool {
		if n != body && IsDefOrLambda(n) {
			return false
		}
		if n.Type == "return_statement" {
			if c := n.NamedChildren(); len(c) == 1 {
				out = append(out, c[0])
			}
			return false
		}
		return true
	})
	return out
}

// CalledDef returns the function of this file a call calls: a plain name
// bound by a def (module level or enclosing), or `self.method(...)` inside
// a class that defines method. Nil otherwise.
func (m *Model) CalledDef(call *Node) *Node {
	if call == nil || call.Type != "call" {
		return nil
	}
	fn := call.ChildByField("function")
	if fn == nil {
		return nil
	}
	switch fn.Type {
	case "identifier":
		b := m.Binding(fn)
		if b != nil && b.Kind == DefBinding {
			return b.Stmt
		}
		if b != nil && b.Kind == ClassBinding {
			// Building an instance runs __init__ with the arguments.
			return methodOf(b.Stmt, "__init__")
		}
	case "attribute":
		obj := fn.ChildByField("object")
		if cls := m.selfClass(obj); cls != nil {
			return methodOf(cls, fn.ChildByField("attribute").Text())
		}
	}
	return nil
}

// MethodOf returns the method name defined in a class body, or nil.
func MethodOf(cls *Node, name string) *Node { return methodOf(cls, name) }

// methodOf returns the method name defined in a class body.
func methodOf(cls *Node, name string) *Node {
	body := cls.ChildByField("body")
	if body == nil {
		return nil
	}
	for _, st := range body.Children {
		d := st
		if d.Type == "decorated_definition" {
			d = d.ChildByField("definition")
		}
		if d != nil && d.Type == "function_definition" {
			if n := d.ChildByField("name"); n != nil && n.Text() == name {
				return d
			}
		}
	}
	return nil
}

// selfClass returns the class whose method's first parameter obj reads
// (`self` in a method), or nil.
func (m *Model) selfClass(obj *Node) *Node {
	if obj == nil || obj.Type != "identifier" {
		return nil
	}
	b := m.Binding(obj)
	if b == nil || b.Kind != ParamBinding || b.Stmt == nil || b.Stmt.Type != "function_definition" {
		return nil
	}
	params := b.Stmt.ChildByField("parameters")
	if params == nil {
		return nil
	}
	ps := params.NamedChildren()
	if len(ps) == 0 || paramName(ps[0]) != b.Ident {
		return nil
	}
	if isStaticMethod(b.Stmt) {
		return nil
	}
	p := b.Stmt.Parent
	if p != nil && p.Type == "decorated_definition" {
		p = p.Parent
	}
	if p == nil || p.Type != "block" || p.Parent == nil || p.Parent.Type != "class_definition" {
		return nil
	}
	return p.Parent
}

func isStaticMethod(def *Node) bool {
	p := def.Parent
	if p == nil || p.Type != "decorated_definition" {
		return false
	}
	for _, c := range p.Children {
		if c.Type == "decorator" && strings.Contains(c.Text(), "staticmethod") {
			return true
		}
	}
	return false
}

// SelfAttrValues returns, for `self.x` read in a method, the values
// assigned to `self.x` in any method of the same class (`self.x = value`,
// also as a tuple target item); nil when expr is not such an attribute or
// nothing assigns it.
func (m *Model) SelfAttrValues(expr *Node) []*Node {
	if expr == nil || expr.Type != "attribute" {
		return nil
	}
	cls := m.selfClass(expr.ChildByField("object"))
	if cls == nil {
		return nil
	}
	return m.classAttrValues(cls, expr.ChildByField("attribute").Text())
}

// InheritedAttrValues returns, for `self.x` read in a method of a class,
// the values the nearest base class that assigns `self.x` gives it (a
// class of this file, or a project class another module defines), with
// the model those values belong to; nil, nil when no base assigns it. A
// class that assigns `self.x` itself is SelfAttrValues' answer.
func (m *Model) InheritedAttrValues(expr *Node) (*Model, []*Node) {
	if expr == nil || expr.Type != "attribute" {
		return nil, nil
	}
	cls := m.selfClass(expr.ChildByField("object"))
	if cls == nil {
		return nil, nil
	}
	return m.baseAttrValues(cls, expr.ChildByField("attribute").Text(), 0)
}

func (m *Model) baseAttrValues(cls *Node, name string, depth int) (*Model, []*Node) {
	sc := cls.ChildByField("superclasses")
	if sc == nil || depth > 4 {
		return nil, nil
	}
	for _, base := range sc.NamedChildren() {
		if !base.Is("identifier", "attribute") {
			continue
		}
		bm, bcls := m, (*Node)(nil)
		if b := m.Binding(RootIdent(base)); base.Type == "identifier" && b != nil && b.Kind == ClassBinding {
			bcls = b.Stmt
		} else if d := m.ImportedDef(base); d != nil && d.Class {
			bm, bcls = m.DefinitionOf(d)
		}
		if bm == nil || bcls == nil || bcls.Type != "class_definition" {
			continue
		}
		if vals := bm.classAttrValues(bcls, name); len(vals) > 0 {
			return bm, vals
		}
		if fm, vals := bm.baseAttrValues(bcls, name, depth+1); len(vals) > 0 {
			return fm, vals
		}
	}
	return nil, nil
}

// classAttrValues returns the values the methods of class cls assign to
// `self.name`.
func (m *Model) classAttrValues(cls *Node, name string) []*Node {
	var out []*Node
	for _, id := range m.identsIn(name, cls) {
		attr := id.Parent
		if attr == nil || attr.Type != "attribute" || id.Field != "attribute" || m.selfClass(attr.ChildByField("object")) != cls {
			continue
		}
		asg := attr.Parent
		if asg == nil {
			continue
		}
		if asg.Type == "assignment" && asg.ChildByField("left") == attr {
			if v := asg.ChildByField("right"); v != nil && v.Type != "assignment" {
				out = append(out, v)
			}
			continue
		}
		// self.a, self.b = x, y
		if asg.Is("pattern_list", "tuple_pattern") && asg.Parent != nil && asg.Parent.Type == "assignment" && asg.Parent.ChildByField("left") == asg {
			right := asg.Parent.ChildByField("right")
			for i, c := range asg.NamedChildren() {
				if c == attr && right != nil && right.Is("expression_list", "tuple") && i < len(right.NamedChildren()) {
					out = append(out, right.NamedChildren()[i])
				}
			}
		}
	}
	return out
}

// SelfAttrReads returns, for `self.x` assigned in a method, the reads of
// `self.x` in every method of the same class (the attribute nodes, not
// the assignments' targets); nil when attr is not such an attribute.
func (m *Model) SelfAttrReads(attr *Node) []*Node {
	if attr == nil || attr.Type != "attribute" {
		return nil
	}
	cls := m.selfClass(attr.ChildByField("object"))
	if cls == nil {
		return nil
	}
	name := attr.ChildByField("attribute").Text()
	var out []*Node
	for _, id := range m.identsIn(name, cls) {
		a := id.Parent
		if a == nil || a.Type != "attribute" || id.Field != "attribute" || m.selfClass(a.ChildByField("object")) != cls {
			continue
		}
		if par := a.Parent; par != nil && (par.Type == "assignment" && par.ChildByField("left") == a || par.Is("pattern_list", "tuple_pattern")) {
			continue // assigned, not read
		}
		out = append(out, a)
	}
	return out
}

// CallSites returns the calls of def in this file: by its name where the
// name resolves to def, and `self.name(...)` in its class for a method.
func (m *Model) CallSites(def *Node) []*Node {
	if m.callSites == nil {
		m.callSites = map[*Node][]*Node{}
		for _, call := range m.File.OfType("call") {
			if d := m.CalledDef(call); d != nil {
				m.callSites[d] = append(m.callSites[d], call)
			}
		}
	}
	return m.callSites[def]
}

// ArgumentFor returns the argument a call passes for the parameter param
// of def: by keyword, or by position (skipping `self` for a method called
// through `self.`). Nil when the call passes none or uses splats before it.
func ArgumentFor(def, call, param *Node) *Node {
	params := def.ChildByField("parameters")
	if params == nil {
		return nil
	}
	name := param.Text()
	if kw := KeywordValue(call, name); kw != nil {
		return kw
	}
	idx := -1
	skip := 0
	ps := params.NamedChildren()
	if IsMethod(def) && len(ps) > 0 {
		skip = 1 // self, bound by the call
	}
	for i, p := range ps {
		if p.Is("list_splat_pattern", "dictionary_splat_pattern", "keyword_separator") {
			break
		}
		if paramName(p) == param {
			idx = i - skip
			break
		}
	}
	if idx < 0 {
		return nil
	}
	args := call.ChildByField("arguments")
	if args == nil {
		return nil
	}
	pos := 0
	for _, a := range args.NamedChildren() {
		switch a.Type {
		case "keyword_argument", "comment":
			continue
		case "list_splat", "dictionary_splat":
			return nil
		}
		if pos == idx {
			return a
		}
		pos++
	}
	return nil
}

// IsMethod reports a function defined in a class body that is not a
// staticmethod: its first parameter is bound by the call.
func IsMethod(def *Node) bool {
	p := def.Parent
	if p != nil && p.Type == "decorated_definition" {
		p = p.Parent
	}
	return p != nil && p.Type == "block" && p.Parent != nil && p.Parent.Type == "class_definition" && !isStaticMethod(def)
}

// ReachingBinding returns the binding of a name read at site that the read
// sees in straight-line code: the name's binding if it has one, else the
// last of its assignments in site's scope that runs unconditionally before
// site (its statement's block holds site). Nil when that is not clear.
func (m *Model) ReachingBinding(ident, site *Node) *Binding {
	bs := m.Bindings(ident)
	if len(bs) == 1 {
		return bs[0]
	}
	var last, param *Binding
	for _, b := range bs {
		if b.Kind == ParamBinding && m.ScopeOf(site) == b.Scope {
			param = b // bound on entry: read where no assignment before site rebinds it
			continue
		}
		if b.Stmt == nil || b.Stmt.Start >= site.Start || b.Stmt.Contains(site) && b.Stmt.Type != "for_statement" {
			continue // `x = x.to(dev)` reads the x bound before it
		}
		if exclusiveBranches(b.Stmt, site) && !sharedLoop(b.Stmt, site) {
			continue // `if a: x = f(x)` does not reach `elif b: ... x ...` (unless a loop takes the other branch next)
		}
		if last == nil || b.Stmt.Start > last.Stmt.Start {
			last = b
		}
	}
	if last == nil {
		// `x = torch.cat([x, pad])` as the function's first binding of
		// x: the read is the parameter's, unless an assignment in a
		// branch before site may have rebound it.
		if param != nil && !slices.ContainsFunc(bs, func(b *Binding) bool {
			return b != param && b.Stmt != nil && (sharedLoop(b.Stmt, site) || b.Stmt.Start < site.Start && !b.Stmt.Contains(site) && !exclusiveBranches(b.Stmt, site))
		}) {
			return param
		}
		return nil
	}
	st := Statement(last.Stmt)
	if st == nil || st.Parent == nil || !st.Parent.Contains(site) || m.ScopeOf(last.Stmt) != m.ScopeOf(site) {
		return nil
	}
	return last
}

// sharedLoop reports a loop of the function around both a and b: an
// assignment written after a read, or in another branch, reaches the
// read on the loop's next pass.
func sharedLoop(a, b *Node) bool {
	for n := b.Parent; n != nil && !IsDefOrLambda(n); n = n.Parent {
		if n.Is("for_statement", "while_statement") && n.Contains(a) {
			return true
		}
	}
	return false
}

// exclusiveBranches reports a and b in different clauses of one if
// statement (`if c: x = f(x)` and `elif d: ... x ...`): no path runs
// both.
func exclusiveBranches(a, b *Node) bool {
	for n := a; n != nil; n = n.Parent {
		if n.Type != "if_statement" || !n.Contains(b) {
			continue
		}
		clause := func(x *Node) *Node {
			for _, c := range n.Children {
				if c.Field == "consequence" || c.Type == "elif_clause" || c.Type == "else_clause" {
					if c.Contains(x) {
						return c
					}
				}
			}
			return nil
		}
		ca, cb := clause(a), clause(b)
		return ca != nil && cb != nil && ca != cb
	}
	return false
}

// ParamName returns the identifier a parameter node binds (`x`, `x=1`,
// `x: int`, `x: int = 1`, `*args`, `**kw`), nil for a separator.
func ParamName(p *Node) *Node { return paramName(p) }

// ItemReads returns, for an item assignment's target `c[k]` (c a name or
// `self.x`), the reads of the same container with the same key elsewhere:
// `self.data_loader['train']` read in train() for the one written in
// load_data() (ST-GCN's Processor classes). A key that is not a string or
// integer literal, on either side, may be any key and matches. Nil when
// target is no such subscript, or c is not bound to a dict
// (dictContainer).
func (m *Model) ItemReads(target *Node) []*Node {
	var out []*Node
	m.sameItems(target, func(sub, written *Node) {
		if written == nil {
			out = append(out, sub)
		}
	})
	return out
}

// ItemValues returns, for a read `c[k]` (c a name or `self.x`), the
// values item assignments `c[k] = v` give the same container under the
// same key; nil when there are none or c is not bound to a dict.
func (m *Model) ItemValues(read *Node) []*Node {
	var out []*Node
	m.sameItems(read, func(sub, written *Node) {
		if written != nil && written.Type != "assignment" {
			out = append(out, written)
		}
	})
	return out
}

// sameItems calls visit for every other subscript of the dict container
// of sub under the same key (sameKey), with the value an assignment
// writes there, or nil where the subscript is read.
func (m *Model) sameItems(sub *Node, visit func(other, written *Node)) {
	if sub == nil || sub.Type != "subscript" {
		return
	}
	container := sub.ChildByField("value")
	if !m.itemWritten(container) || !m.dictContainer(container) {
		return
	}
	for _, c := range m.containerReads(container) {
		other := c.Parent
		if other == nil || other.Type != "subscript" || other.ChildByField("value") != c || other == sub || !sameKey(other, sub) {
			continue
		}
		if asg := other.Parent; asg != nil && asg.Type == "assignment" && asg.ChildByField("left") == other {
			if v := asg.ChildByField("right"); v != nil {
				visit(other, v)
			}
			continue
		}
		visit(other, nil)
	}
}

// itemWritten reports a container whose text some item assignment of the
// file writes into (`c[k] = v`): the cheap test before dictContainer's.
func (m *Model) itemWritten(c *Node) bool {
	if c == nil {
		return false
	}
	if m.itemTargets == nil {
		m.itemTargets = map[string]bool{}
		for _, asg := range m.File.OfType("assignment") {
			if left := asg.ChildByField("left"); left != nil && left.Type == "subscript" {
				if v := left.ChildByField("value"); v != nil {
					m.itemTargets[v.Text()] = true
				}
			}
		}
	}
	return m.itemTargets[c.Text()]
}

// containerReads returns every mention of the container c, a name or a
// `self.x` attribute: the reads of the name's bindings that reach c, or
// of the attribute in the class's methods.
func (m *Model) containerReads(c *Node) []*Node {
	switch {
	case c == nil:
		return nil
	case c.Type == "attribute" && m.selfClass(c.ChildByField("object")) != nil:
		return m.SelfAttrReads(c)
	case c.Type == "identifier":
		var out []*Node
		for _, b := range m.Bindings(c) {
			out = append(out, b.Uses...)
		}
		return out
	}
	return nil
}

// sameKey reports whether two subscripts may name the same item: equal
// string or integer literal keys, or a key that is neither.
func sameKey(a, b *Node) bool {
	ka, kb := a.ChildByField("subscript"), b.ChildByField("subscript")
	if ka == nil || kb == nil {
		return false
	}
	la, oka := literalKey(ka)
	lb, okb := literalKey(kb)
	return !oka || !okb || la == lb
}

func literalKey(k *Node) (string, bool) {
	if k.Type == "integer" {
		return k.Text(), true
	}
	if s, ok := StringValue(k); ok {
		return "'" + s, true
	}
	return "", false
}

// DictContainer reports a container, a name or `self.x`, that some
// assignment binds to a dict: dictContainer's, or a module's
// `.state_dict()` (a checkpoint's tensors, stored by key).
func (m *Model) DictContainer(c *Node) bool {
	if m.dictContainer(c) {
		return true
	}
	if c == nil || c.Type != "identifier" {
		return false
	}
	for _, b := range m.Bindings(c) {
		if b.Kind == AssignBinding && b.Value != nil && b.Value.Type == "call" {
			if fn := b.Value.ChildByField("function"); fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "state_dict" {
				return true
			}
		}
	}
	return false
}

// HostContainer reports a container whose item stores are not a
// tensor's elements: a dict (DictContainer), a NumPy array made by a
// numpy function, or a container written inside a loop over its own
// keys. UncastWriteExcept passes over stores into such containers.
func (m *Model) HostContainer(c *Node) bool {
	return m.DictContainer(c) || m.numpyArrayContainer(c) || iteratedByKeys(c)
}

// IsMethodCall reports a call `obj.name()` with no arguments.
func IsMethodCall(n *Node, name string) bool {
	fn := n.ChildByField("function")
	args := n.ChildByField("arguments")
	return fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == name && args != nil && len(args.NamedChildren()) == 0
}

// numpyArrayContainer reports a container, a name or `self.x`, that
// every assignment binds to a NumPy array made by a numpy function
// (`lossall = np.zeros((4, iterations))`): a write into it by index is
// NumPy's, which autocast never sees (blind sample S33U's LapIRN and
// ICNet, where AMP004 named `lossall[:, step] = np.array([...])` as a
// tensor write that would raise).
func (m *Model) numpyArrayContainer(c *Node) bool {
	values, complete := m.containerValues(c)
	if !complete {
		return false
	}
	for _, v := range values {
		if v.Type != "call" || !strings.HasPrefix(m.CalleeName(v), "numpy.") {
			return false
		}
	}
	return len(values) > 0
}

// containerValues returns the values assigned to a container, a name
// (its bindings) or `self.x` (in any method), and whether every binding
// of the name is an assignment of a value (a parameter or a loop target
// is not).
func (m *Model) containerValues(c *Node) (values []*Node, complete bool) {
	switch {
	case c == nil:
		return nil, false
	case c.Type == "attribute":
		return m.SelfAttrValues(c), true
	case c.Type == "identifier":
		complete = true
		for _, b := range m.Bindings(c) {
			if b.Kind != AssignBinding || b.Value == nil {
				complete = false
				continue
			}
			values = append(values, b.Value)
		}
		return values, complete
	}
	return nil, false
}

// iteratedByKeys reports a container written inside a loop over its own
// keys (`for key in batch.keys(): batch[key] = move(batch[key])`): a
// dict, whatever the code that built it (blind sample S33O's PANNs,
// whose batch dict AMP004 named as a tensor written by index).
func iteratedByKeys(c *Node) bool {
	if c == nil || !c.Is("identifier", "attribute") {
		return false
	}
	for a := c.Parent; a != nil && !IsDefOrLambda(a); a = a.Parent {
		if a.Type != "for_statement" {
			continue
		}
		if r := a.ChildByField("right"); r != nil && r.Type == "call" && (IsMethodCall(r, "keys") || IsMethodCall(r, "items")) &&
			r.ChildByField("function").ChildByField("object").Text() == c.Text() {
			return true
		}
	}
	return false
}

// dictContainer reports a container, a name or `self.x`, that some
// assignment binds to a dict (`{}`, a dict literal or comprehension,
// `dict()`, `OrderedDict()`): its items are values kept under keys, unlike a
// tensor's, whose item writes change elements.
func (m *Model) dictContainer(c *Node) bool {
	values, _ := m.containerValues(c)
	for _, v := range values {
		if v.Type == "dictionary" || v.Type == "dictionary_comprehension" {
			return true
		}
		if v.Type == "call" {
			if q := m.CalleeName(v); q == "dict" || q == "collections.OrderedDict" || q == "collections.defaultdict" {
				return true
			}
		}
	}
	return false
}

package rewrite

import "strings"

// binder walks the tree once, creating scopes and bindings and collecting
// every identifier that is read, to be resolved when all bindings are known.
type binder struct {
	m     *Model
	loads []load
	// bindings and lists are chunks that bind carves its Binding objects
	// and the first slot of each name's binding list from: one allocation
	// per chunk instead of two per binding.
	bindings []Binding
	lists    []*Binding
	chunk    int // size of the next chunk: doubles, so at most half is unused
	made     int // bindings made so far
}

// nextChunk returns the size of the next chunk of bindings: 8 at first,
// then as many as allocated so far, up to 256.
func (b *binder) nextChunk() int {
	b.chunk = min(max(8, 2*b.chunk), 256)
	return b.chunk
}

type load struct {
	ident *Node
	scope *Scope
}

func (b *binder) bind(s *Scope, ident *Node, kind BindingKind, stmt, value *Node, qualified string) *Binding {
	name := ident.Text()
	owner := s
	if s.global[name] {
		owner = b.m.Module
	}
	if len(b.bindings) == 0 {
		b.bindings = make([]Binding, b.nextChunk())
	}
	bd := &b.bindings[0]
	b.bindings = b.bindings[1:]
	b.made++
	*bd = Binding{Name: name, Kind: kind, Ident: ident, Stmt: stmt, Scope: owner, Value: value, Qualified: qualified}
	list := owner.Bindings[name]
	if list == nil {
		if len(b.lists) == 0 {
			b.lists = make([]*Binding, max(b.chunk, 64))
		}
		list = b.lists[:0:1] // a longer list reallocates, as append does
		b.lists = b.lists[1:]
	}
	owner.Bindings[name] = append(list, bd)
	if kind == ImportBinding && qualified != "" {
		// Imports at any scope count: `import xgboost as xgb` inside a
		// function or a `try:` block makes the file an XGBoost file too.
		b.m.imported = append(b.m.imported, qualified)
		if owner == b.m.Module {
			b.m.moduleImports = append(b.m.moduleImports, bd)
		}
	}
	return bd
}

// walkAll walks the named nodes of ns: punctuation and keywords neither
// bind nor read a name.
func (b *binder) walkAll(ns []*Node, s *Scope) {
	for _, n := range ns {
		if n.Named {
			b.walk(n, s)
		}
	}
}

func (b *binder) walk(n *Node, s *Scope) {
	if n.tid == pythonSymbols.identifierID {
		// The commonest node, tested by its type id before the switch
		// compares type names.
		b.loads = append(b.loads, load{n, s})
		return
	}
	switch n.Type {
	case "identifier": // made outside the mirror, without a type id
		b.loads = append(b.loads, load{n, s})
	case "import_statement":
		for _, c := range n.Children {
			switch {
			case c.Field != "name":
			case c.Type == "dotted_name":
				// `import a.b` binds `a` to the package a.
				first := c.NamedChildren()[0]
				b.bind(s, first, ImportBinding, n, nil, first.Text())
			case c.Type == "aliased_import":
				name, alias := c.ChildByField("name"), c.ChildByField("alias")
				if name != nil && alias != nil {
					b.bind(s, alias, ImportBinding, n, nil, dotted(name))
				}
			}
		}
	case "import_from_statement", "future_import_statement":
		module, relative := "", ""
		if mn := n.ChildByField("module_name"); mn != nil && mn.Type == "dotted_name" {
			module = dotted(mn)
		} else if mn != nil && mn.Type == "relative_import" {
			relative = strings.Join(strings.Fields(mn.Text()), "")
		}
		if n.Type == "future_import_statement" {
			module = "__future__"
		}
		for _, c := range n.Children {
			if c.Type == "wildcard_import" {
				if s == b.m.Module {
					b.m.StarImport = true
					if module != "" || relative != "" {
						b.m.starFrom = append(b.m.starFrom, module+relative)
					}
				}
				continue
			}
			if c.Field != "name" {
				continue
			}
			var name, alias *Node
			if c.Type == "aliased_import" {
				name, alias = c.ChildByField("name"), c.ChildByField("alias")
			} else {
				name = c
				if nc := c.NamedChildren(); len(nc) > 0 {
					alias = nc[len(nc)-1]
				}
			}
			if name == nil || alias == nil {
				continue
			}
			q := ""
			if module != "" {
				q = module + "." + dotted(name)
			}
			bd := b.bind(s, alias, ImportBinding, n, nil, q)
			if relative != "" {
				// `from .model import Net`: the project index resolves it.
				bd.Relative = relative + "." + dotted(name)
				if strings.HasSuffix(relative, ".") {
					bd.Relative = relative + dotted(name)
				}
			}
		}
	case "function_definition":
		b.walkDecorated(n, s)
		if name := n.ChildByField("name"); name != nil {
			b.bind(s, name, DefBinding, n, nil, "")
		}
		fs := b.m.newScope(FunctionScope, n, s)
		b.walkFunction(n, s, fs)
	case "class_definition":
		if name := n.ChildByField("name"); name != nil {
			b.bind(s, name, ClassBinding, n, nil, "")
		}
		if sc := n.ChildByField("superclasses"); sc != nil {
			b.walk(sc, s)
		}
		cs := b.m.newScope(ClassScope, n, s)
		if body := n.ChildByField("body"); body != nil {
			b.walk(body, cs)
		}
	case "decorated_definition":
		b.walkAll(n.Children, s)
	case "lambda":
		ls := b.m.newScope(LambdaScope, n, s)
		b.walkFunction(n, s, ls)
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		cs := b.m.newScope(ComprehensionScope, n, s)
		// Bind the loop targets first so the element expression sees them.
		for _, c := range n.Children {
			if c.Type == "for_in_clause" {
				b.bindTargets(c.ChildByField("left"), cs, LoopBinding, c, nil)
			}
		}
		for _, c := range n.Children {
			if c.Type == "for_in_clause" {
				if r := c.ChildByField("right"); r != nil {
					b.walk(r, cs)
				}
				continue
			}
			b.walk(c, cs)
		}
	case "assignment":
		left, right := n.ChildByField("left"), n.ChildByField("right")
		if right != nil {
			b.walk(right, s)
		}
		if t := n.ChildByField("type"); t != nil {
			b.walk(t, s)
		}
		value := right
		if right != nil && right.Type == "assignment" {
			value = nil // chained a = b = value: keep it simple
		}
		b.bindTargets(left, s, AssignBinding, n, value)
	case "augmented_assignment":
		left, right := n.ChildByField("left"), n.ChildByField("right")
		if right != nil {
			b.walk(right, s)
		}
		if left != nil && left.Type == "identifier" {
			b.loads = append(b.loads, load{left, s})
			b.bind(s, left, AugAssignBinding, n, nil, "")
		} else if left != nil {
			b.walk(left, s)
		}
	case "named_expression":
		if v := n.ChildByField("value"); v != nil {
			b.walk(v, s)
		}
		target := s
		for target.Kind == ComprehensionScope && target.Parent != nil {
			target = target.Parent
		}
		if name := n.ChildByField("name"); name != nil {
			b.bind(target, name, AssignBinding, n, n.ChildByField("value"), "")
		}
	case "for_statement":
		if r := n.ChildByField("right"); r != nil {
			b.walk(r, s)
		}
		b.bindTargets(n.ChildByField("left"), s, LoopBinding, n, nil)
		for _, c := range n.Children {
			if c.Field == "body" || c.Type == "else_clause" {
				b.walk(c, s)
			}
		}
	case "as_pattern":
		// with-items and except clauses: `expr as name`.
		for _, c := range n.Children {
			if c.Field == "alias" {
				b.bindTargets(c, s, WithBinding, n.Ancestor("with_statement", "except_clause"), nil)
			} else {
				b.walk(c, s)
			}
		}
	case "global_statement", "nonlocal_statement":
		for _, c := range n.NamedChildren() {
			if c.Type == "identifier" {
				if s.global == nil {
					s.global = map[string]bool{}
				}
				s.global[c.Text()] = n.Type == "global_statement"
			}
		}
	case "attribute":
		if obj := n.ChildByField("object"); obj != nil {
			b.walk(obj, s)
		}
	case "keyword_argument":
		if v := n.ChildByField("value"); v != nil {
			b.walk(v, s)
		}
	case "except_clause":
		// Older grammars: `except E as name` without an as_pattern node.
		for i, c := range n.Children {
			if c.Type == "identifier" && i > 0 && n.Children[i-1].Type == "as" {
				b.bind(s, c, WithBinding, n, nil, "")
				continue
			}
			b.walk(c, s)
		}
	default:
		b.walkAll(n.Children, s)
	}
}

// walkDecorated walks what a def evaluates in the enclosing scope: the
// default values and annotations of its parameters.
func (b *binder) walkDecorated(def *Node, s *Scope) {
	params := def.ChildByField("parameters")
	if params == nil {
		return
	}
	for _, p := range params.Children {
		for _, f := range []string{"value", "type"} {
			if v := p.ChildByField(f); v != nil {
				b.walk(v, s)
			}
		}
	}
	if r := def.ChildByField("return_type"); r != nil {
		b.walk(r, s)
	}
}

// walkFunction binds parameters in fs and walks the body there.
func (b *binder) walkFunction(fn *Node, outer, fs *Scope) {
	if fn.Type == "lambda" {
		if params := fn.ChildByField("parameters"); params != nil {
			for _, p := range params.Children {
				if v := p.ChildByField("value"); v != nil {
					b.walk(v, outer)
				}
			}
		}
	}
	if params := fn.ChildByField("parameters"); params != nil {
		for _, p := range params.Children {
			if id := paramName(p); id != nil {
				b.bind(fs, id, ParamBinding, fn, nil, "")
			}
		}
	}
	if body := fn.ChildByField("body"); body != nil {
		b.walk(body, fs)
	}
}

func paramName(p *Node) *Node {
	switch p.Type {
	case "identifier":
		return p
	case "default_parameter", "typed_default_parameter":
		return p.ChildByField("name")
	case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
		for _, c := range p.NamedChildren() {
			if c.Type == "identifier" {
				return c
			}
			if id := paramName(c); id != nil {
				return id
			}
		}
	}
	return nil
}

// bindTargets binds every name in an assignment target; subscripts and
// attributes in a target are reads of their object.
func (b *binder) bindTargets(t *Node, s *Scope, kind BindingKind, stmt, value *Node) {
	if t == nil {
		return
	}
	switch t.Type {
	case "identifier":
		b.bind(s, t, kind, stmt, value, "")
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list", "parenthesized_expression", "list_splat_pattern", "as_pattern_target":
		for _, c := range t.NamedChildren() {
			b.bindTargets(c, s, kind, stmt, nil)
		}
	default:
		b.walk(t, s)
	}
}

// dotted returns a dotted_name's text without inner whitespace.
func dotted(n *Node) string {
	text := n.Text()
	if n.Type != "dotted_name" || !strings.ContainsAny(text, " \t\f\v\r\n\\#") {
		return text // spelled without inner space: the source text is the name
	}
	out := ""
	for _, c := range n.NamedChildren() {
		if out != "" {
			out += "."
		}
		out += c.Text()
	}
	return out
}

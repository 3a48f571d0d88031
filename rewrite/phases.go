package rewrite

import "strings"

// Training phases: where gradients are off (no_grad / inference_mode) and
// where a model was put in evaluation mode.

// WithContexts returns the context expressions of a with statement's own
// items (`with torch.no_grad(), open(f) as fh:` gives both calls), not
// those of with statements in its block.
func WithContexts(with *Node) []*Node {
	var out []*Node
	with.Walk(func(c *Node) bool {
		if c.Type == "block" {
			return false
		}
		if c.Type == "with_item" {
			if v := c.ChildByField("value"); v != nil {
				if v.Type == "as_pattern" && len(v.NamedChildren()) > 0 {
					v = v.NamedChildren()[0]
				}
				// `with net.eval() and torch.no_grad():` enters the last
				// operand (the first is a truthy module): blind sample
				// S38F's change-detection trainer.
				for v.Type == "boolean_operator" && v.ChildByField("operator") != nil && v.ChildByField("operator").Type == "and" && v.ChildByField("right") != nil {
					v = v.ChildByField("right")
				}
				out = append(out, v)
			}
		}
		return true
	})
	return out
}

// IsGradModeCall reports whether call is one of torch's grad-mode context
// managers or decorators: no_grad, inference_mode, set_grad_enabled,
// enable_grad (under torch. or torch.autograd.).
func (m *Model) IsGradModeCall(expr *Node) bool {
	q := ""
	switch expr.Type {
	case "call":
		q = m.CalleeName(expr)
	case "identifier", "attribute":
		q = m.QualifiedName(expr)
	}
	if !strings.HasPrefix(q, "torch.") {
		return false
	}
	for _, s := range []string{".no_grad", ".inference_mode", ".set_grad_enabled", ".enable_grad"} {
		if strings.HasSuffix(q, s) {
			return true
		}
	}
	return false
}

// InGradContext reports whether n runs under a grad-mode context manager or
// decorator that the file shows: an enclosing `with torch.no_grad():` (or
// inference_mode, set_grad_enabled, enable_grad), an enclosing function
// decorated with one, or an enclosing module-level function that the file
// calls from such a context (up to three callers up; past that, no
// context was found and it reports false). It also reports true when the file switches
// grad mode globally (`torch.set_grad_enabled(False)` as a statement),
// since the mode at n is then unknown.
func (m *Model) InGradContext(n *Node) bool {
	return m.inGradContext(n, 0)
}

func (m *Model) inGradContext(n *Node, depth int) bool {
	if depth > 3 {
		// Callers of callers of callers: a script's main() calling a
		// task calling train() calling evaluate() (diffpool: blind
		// sample XX). No context was found on the way; a no_grad that
		// far up is not this code's design.
		return false
	}
	if m.globalGradSwitch() {
		return true
	}
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Type {
		case "with_statement":
			for _, v := range WithContexts(p) {
				if m.IsGradModeCall(v) {
					return true
				}
			}
		case "function_definition":
			if dd := p.Parent; dd != nil && dd.Type == "decorated_definition" {
				for _, d := range dd.Children {
					if d.Type != "decorator" {
						continue
					}
					for _, e := range d.NamedChildren() {
						if m.IsGradModeCall(e) || gradModeWrapper(e) || m.gradModeDecorator(e) {
							return true
						}
					}
				}
			}
			// A function the file calls under a grad-mode context.
			if name := p.ChildByField("name"); name != nil {
				// Methods: any `.name(...)` call of the file counts.
				for _, call := range m.File.OfType("call") {
					fn := call.ChildByField("function")
					if fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == name.Text() &&
						!p.Contains(call) && m.inGradContext(call, depth+1) {
						return true
					}
				}
				for _, b := range m.Bindings(name) {
					if b.Kind != DefBinding || b.Stmt != p {
						continue
					}
					for _, use := range b.Uses {
						if use.Parent != nil && use.Parent.Type == "call" && use.Field == "function" && m.inGradContext(use, depth+1) {
							return true
						}
					}
				}
				// Or that other modules of the project call under one
				// (`with torch.no_grad(): val_loss = validate(...)` in
				// main.py): every such call must be.
				if calls := m.ForeignCallSites(p); len(calls) > 0 {
					all := true
					for _, fc := range calls {
						if !fc.Model.inGradContext(fc.Call, depth+1) {
							all = false
						}
					}
					if all {
						return true
					}
				}
			}
		}
	}
	return false
}

// globalGradSwitch reports a `torch.set_grad_enabled(...)` (or
// `torch.autograd.set_grad_enabled`) called as a plain statement anywhere
// in the file.
func (m *Model) globalGradSwitch() bool {
	for _, call := range m.File.OfType("call") {
		if strings.HasSuffix(m.CalleeName(call), ".set_grad_enabled") && call.Parent != nil && call.Parent.Type == "expression_statement" {
			return true
		}
	}
	return false
}

// EvalModeBefore returns the receiver of the nearest `R.eval()` statement
// that runs before stmt in the same function (in stmt's block or an
// enclosing block, earlier in source order) with no `R.train(...)` between
// them; nil when there is none.
func (m *Model) EvalModeBefore(stmt *Node) *Node {
	for child := stmt; child != nil && child.Parent != nil && !IsScopeNode(child); child = child.Parent {
		block := child.Parent
		if !block.Is("block", "module") {
			continue
		}
		stmts := Statements(block)
		for i := len(stmts) - 1; i >= 0; i-- {
			s := stmts[i]
			if s.Start >= child.Start {
				continue
			}
			recv, method := methodStatement(s)
			if target := evalAssignment(s); target != nil {
				recv, method = target, "eval" // model = Net().eval()
			}
			switch method {
			case "eval":
				// No R.train() between the eval and stmt (in this block).
				for _, t := range stmts[i+1:] {
					if t.Start >= child.Start {
						break
					}
					if r2, m2 := methodStatement(t); m2 == "train" && r2.Text() == recv.Text() {
						return nil
					}
				}
				return recv
			case "train":
				return nil
			}
		}
		if block.Type == "module" {
			break
		}
	}
	return nil
}

// methodStatement returns R and "name" for an expression statement
// `R.name(...)`.
// evalAssignment returns the name a statement binds to a model put in
// evaluation mode on the way (`model = Generator(4).eval()`, also followed
// by `.cuda()` or `.to(device)`), or nil.
func evalAssignment(s *Node) *Node {
	if s.Type != "expression_statement" || len(s.NamedChildren()) != 1 {
		return nil
	}
	a := s.NamedChildren()[0]
	if a.Type != "assignment" {
		return nil
	}
	left := a.ChildByField("left")
	if left == nil || left.Type != "identifier" {
		return nil
	}
	for e := a.ChildByField("right"); e != nil && e.Type == "call"; {
		fn := e.ChildByField("function")
		if fn == nil || fn.Type != "attribute" {
			return nil
		}
		switch fn.ChildByField("attribute").Text() {
		case "eval":
			return left
		case "cuda", "to", "half", "float":
			e = fn.ChildByField("object")
		default:
			return nil
		}
	}
	return nil
}

func methodStatement(s *Node) (*Node, string) {
	if s.Type != "expression_statement" || len(s.NamedChildren()) != 1 {
		return nil, ""
	}
	call := s.NamedChildren()[0]
	if call.Type != "call" {
		return nil, ""
	}
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return nil, ""
	}
	return fn.ChildByField("object"), fn.ChildByField("attribute").Text()
}

// gradModeWrapper reports a decorator that is not torch's but says by its
// name that it turns gradients off: a project's own wrapper such as
// YOLOv5's `@smart_inference_mode()` (inference_mode, or no_grad on old
// torch) or `@no_grad_eval`.
func gradModeWrapper(e *Node) bool {
	if e != nil && e.Type == "identifier" && strings.EqualFold(e.Text(), "nograd") {
		return true
	}
	if e.Type == "call" {
		e = e.ChildByField("function")
	}
	if e == nil {
		return false
	}
	if e.Type == "attribute" {
		e = e.ChildByField("attribute")
	}
	if e == nil || e.Type != "identifier" {
		return false
	}
	name := strings.ToLower(e.Text())
	return strings.Contains(name, "inference_mode") || strings.Contains(name, "no_grad")
}

// gradModeDecorator reports a decorator that is a function of this file
// whose body runs its wrapped call under a grad-mode context (`def
// nograd(f): def new_f(*a, **k): with t.no_grad(): return f(*a, **k)`:
// blind sample S14F's Faster R-CNN).
func (m *Model) gradModeDecorator(e *Node) bool {
	if e == nil || e.Type != "identifier" {
		return false
	}
	for _, b := range m.Bindings(e) {
		if b.Kind != DefBinding || b.Stmt == nil {
			continue
		}
		found := false
		b.Stmt.Walk(func(n *Node) bool {
			if n.Type == "with_statement" {
				for _, v := range WithContexts(n) {
					found = found || m.IsGradModeCall(v)
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

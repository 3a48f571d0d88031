package rewrite

// Name questions for fixes that introduce a new variable.

// NameFree reports whether name appears nowhere in the file as a variable:
// no scope binds it and no identifier reads it (not even as a builtin or a
// name the model cannot resolve). Attribute and keyword names do not count.
// A module-level binding of a free name means the same thing everywhere.
func (m *Model) NameFree(name string) bool {
	for _, s := range m.scopes {
		if len(s.Bindings[name]) > 0 || s.global[name] {
			return false
		}
	}
	for _, r := range m.reads {
		if r.ident.Text() == name {
			return false
		}
	}
	return true
}

// BindingsAt returns the bindings name would resolve to if it were read at
// site (Python's LEGB lookup from site's scope).
func (m *Model) BindingsAt(site *Node, name string) []*Binding {
	return m.lookup(m.ScopeOf(site), name)
}

// TargetBinding returns the binding an assignment target identifier
// creates (`loader` in `loader = DataLoader(...)`, an item of a tuple
// target), nil when target binds nothing.
func (m *Model) TargetBinding(target *Node) *Binding {
	if target == nil || target.Type != "identifier" {
		return nil
	}
	for _, b := range m.ScopeOf(target).Bindings[target.Text()] {
		if b.Ident == target {
			return b
		}
	}
	return nil
}

// SameMeaningAt reports whether expr, copied to site, reads the same
// variables: every identifier expr reads resolves at site to the same
// bindings it resolves to where it stands.
func (m *Model) SameMeaningAt(expr, site *Node) bool {
	same := true
	expr.Walk(func(n *Node) bool {
		if !same {
			return false
		}
		if n.Is("lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression", "named_expression") {
			same = false
			return false
		}
		if n.Type != "identifier" || !m.IsRead(n) {
			return true
		}
		here, there := m.Bindings(n), m.BindingsAt(site, n.Text())
		if len(here) != len(there) {
			same = false
			return false
		}
		for i := range here {
			if here[i] != there[i] {
				same = false
			}
		}
		return true
	})
	return same
}

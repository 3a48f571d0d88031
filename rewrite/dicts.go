package rewrite

// Dict values built in steps: a literal, then `.update(...)` and `d[k] = v`
// statements, or one of several literals chosen by a conditional. Rules
// ask what keys reach a call through `**kwargs` (does the loader's kwargs
// set num_workers? is it pinned?).

// DictEntry is a key a dict value may hold.
type DictEntry struct {
	Key   string
	Value *Node
	// Maybe: the key is set on some paths only (one branch of a
	// conditional, an update under an `if`).
	Maybe bool
}

// DictEntries returns the string keys expr's dict may hold when it is
// read at site, and whether the list is complete: a dict literal (or
// `dict(k=v)`), a conditional expression of such, or a name bound once to
// one and then changed only by `name.update(<dict>)` and `name["k"] = v`
// statements before site in the same scope. complete is false when
// something gpuopt cannot read may add keys (a splat, an update from an
// unknown value, the name passed to a function before site).
func (m *Model) DictEntries(expr, site *Node) (entries []DictEntry, complete bool) {
	return m.dictEntries(expr, site, 0)
}

func (m *Model) dictEntries(expr, site *Node, depth int) ([]DictEntry, bool) {
	if expr == nil || depth > 4 {
		return nil, false
	}
	switch expr.Type {
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			return m.dictEntries(c[0], site, depth+1)
		}
	case "dictionary":
		var out []DictEntry
		complete := true
		for _, c := range expr.NamedChildren() {
			switch c.Type {
			case "pair":
				k, ok := StringValue(c.ChildByField("key"))
				if !ok {
					complete = false
					continue
				}
				out = append(out, DictEntry{Key: k, Value: c.ChildByField("value")})
			case "dictionary_splat":
				inner, ok := m.dictEntries(c.NamedChildren()[0], site, depth+1)
				out = append(out, inner...)
				complete = complete && ok
			case "comment":
			default:
				complete = false
			}
		}
		return out, complete
	case "call":
		if m.CalleeName(expr) != "dict" || len(PositionalArgs(expr)) > 0 {
			return nil, false
		}
		var out []DictEntry
		complete := true
		for _, a := range expr.ChildByField("arguments").NamedChildren() {
			switch a.Type {
			case "keyword_argument":
				out = append(out, DictEntry{Key: a.ChildByField("name").Text(), Value: a.ChildByField("value")})
			case "comment":
			default:
				complete = false
			}
		}
		return out, complete
	case "conditional_expression":
		c := expr.NamedChildren()
		if len(c) != 3 {
			return nil, false
		}
		a, okA := m.dictEntries(c[0], site, depth+1)
		b, okB := m.dictEntries(c[2], site, depth+1)
		return mergeBranches(a, b), okA && okB
	case "identifier":
		return m.nameDictEntries(expr, site, depth)
	}
	return nil, false
}

// mergeBranches joins the entries of two alternatives: a key in only one
// of them is Maybe (a key in both keeps the first branch's value).
func mergeBranches(a, b []DictEntry) []DictEntry {
	var out []DictEntry
	for _, e := range a {
		found := false
		for _, f := range b {
			if f.Key == e.Key {
				found = true
				if !e.Maybe && !f.Maybe {
					out = append(out, e)
				} else {
					out = append(out, DictEntry{Key: e.Key, Value: e.Value, Maybe: true})
				}
			}
		}
		if !found {
			out = append(out, DictEntry{Key: e.Key, Value: e.Value, Maybe: true})
		}
	}
	for _, f := range b {
		found := false
		for _, e := range a {
			if e.Key == f.Key {
				found = true
			}
		}
		if !found {
			out = append(out, DictEntry{Key: f.Key, Value: f.Value, Maybe: true})
		}
	}
	return out
}

// nameDictEntries reads a name's dict: its one assignment, then the
// updates and key stores of the same scope before site.
func (m *Model) nameDictEntries(ident, site *Node, depth int) ([]DictEntry, bool) {
	bs := m.Bindings(ident)
	if len(bs) != 1 || bs[0].Kind != AssignBinding || bs[0].Value == nil {
		return nil, false
	}
	b := bs[0]
	out, complete := m.dictEntries(b.Value, b.Stmt, depth+1)
	if out == nil && !complete {
		return nil, false
	}
	set := func(e DictEntry) {
		for i := range out {
			if out[i].Key == e.Key {
				if e.Maybe {
					out[i].Maybe = true
					if out[i].Value == nil {
						out[i].Value = e.Value
					}
				} else {
					out[i] = e
				}
				return
			}
		}
		out = append(out, e)
	}
	for _, u := range b.Uses {
		if u.Start <= b.Stmt.End || u.Start >= site.Start {
			continue
		}
		// Under a condition between the binding's block and the use?
		cond := false
		block := b.Stmt.Parent
		if block != nil && block.Type == "expression_statement" {
			block = block.Parent
		}
		for a := u.Parent; a != nil && a != block; a = a.Parent {
			if a.Is("if_statement", "elif_clause", "else_clause", "for_statement", "while_statement", "try_statement", "with_statement") {
				cond = true
			}
			if IsDefOrLambda(a) {
				return out, false // changed in another function
			}
		}
		par := u.Parent
		switch {
		case par.Type == "attribute" && par.ChildByField("object") == u:
			call := par.Parent
			attr := par.ChildByField("attribute").Text()
			if call == nil || call.Type != "call" || call.ChildByField("function") != par {
				continue // d.get / d.keys as a value: no change
			}
			switch attr {
			case "update":
				args := PositionalArgs(call)
				if len(args) == 1 && KeywordArg(call, "") == nil {
					more, ok := m.dictEntries(args[0], call, depth+1)
					for _, e := range more {
						e.Maybe = e.Maybe || cond
						set(e)
					}
					complete = complete && ok
				} else {
					for _, a := range call.ChildByField("arguments").NamedChildren() {
						if a.Type == "keyword_argument" {
							set(DictEntry{Key: a.ChildByField("name").Text(), Value: a.ChildByField("value"), Maybe: cond})
						} else if a.Type != "comment" {
							complete = false
						}
					}
				}
			case "get", "keys", "values", "items", "copy", "__contains__":
			case "setdefault", "pop", "popitem", "clear":
				complete = false
			default:
				complete = false
			}
		case par.Type == "subscript" && par.ChildByField("value") == u:
			asg := par.Parent
			if asg != nil && asg.Type == "assignment" && asg.ChildByField("left") == par {
				k, ok := StringValue(par.ChildByField("subscript"))
				if !ok {
					complete = false
					continue
				}
				set(DictEntry{Key: k, Value: asg.ChildByField("right"), Maybe: cond})
			}
		case par.Type == "dictionary_splat":
			// read as **d: no change
		default:
			// Passed to something that might change it (merging it into
			// another dict with other.update(d) does not).
			if par.Type == "argument_list" {
				if c := par.Parent; c != nil && c.Type == "call" {
					if fn := c.ChildByField("function"); fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "update" {
						continue
					}
				}
				complete = false
			}
		}
	}
	return out, complete
}

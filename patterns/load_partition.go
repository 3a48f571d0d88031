package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// Partitions of a dataset class: one class whose __getitem__ branches on
// an attribute its __init__ copies from a constructor parameter (`if
// self.is_train:`, `if self.query_or_db == "query":`), so each
// construction serves only one branch. The helpers below tell which
// branches a given construction can never take.

// inOtherPartition reports a node n of get (a method of cls) in a branch
// that the construction built never takes: under an if, elif or else
// whose conditions read such attributes, given the literals built passes
// (or its parameters' defaults).
func inOtherPartition(cls, get, n, built *rewrite.Node) bool {
	for a := n.Parent; a != nil && a != get; a = a.Parent {
		if a.Type != "if_statement" {
			continue
		}
		// The chain's conditions in order; taken is the index of the
		// branch holding n (len(conds) for the else).
		var conds []*rewrite.Node
		taken := -1
		if c := a.ChildByField("consequence"); c != nil && c.Contains(n) {
			taken = 0
		}
		conds = append(conds, a.ChildByField("condition"))
		for _, alt := range a.Children {
			switch alt.Type {
			case "elif_clause":
				if c := alt.ChildByField("consequence"); c != nil && c.Contains(n) {
					taken = len(conds)
				}
				conds = append(conds, alt.ChildByField("condition"))
			case "else_clause":
				if alt.Contains(n) {
					taken = len(conds)
				}
			}
		}
		if taken < 0 {
			continue
		}
		// Not taken when its own condition is known false or an earlier
		// one is known true.
		if taken < len(conds) {
			if v, known := partitionCondition(cls, conds[taken], built); known && !v {
				return true
			}
		}
		for _, c := range conds[:min(taken, len(conds))] {
			if v, known := partitionCondition(cls, c, built); known && v {
				return true
			}
		}
	}
	return false
}

// partitionCondition evaluates a branch condition over constructor
// attributes: `self.attr == "lit"` (or !=), `self.attr`, `not self.attr`.
func partitionCondition(cls, cond, built *rewrite.Node) (value, known bool) {
	cond = unparen(cond)
	if cond == nil {
		return false, false
	}
	switch cond.Type {
	case "not_operator":
		v, ok := partitionCondition(cls, cond.ChildByField("argument"), built)
		return !v, ok
	case "attribute":
		if !selfAttribute(cond) {
			return false, false
		}
		lit := constructorLiteral(cls, cond.ChildByField("attribute").Text(), built)
		return literalTruth(lit)
	case "comparison_operator":
		kids := cond.NamedChildren()
		if len(kids) != 2 || !selfAttribute(kids[0]) {
			return false, false
		}
		op := ""
		for _, c := range cond.Children {
			if !c.Named {
				op += c.Type
			}
		}
		if op != "==" && op != "!=" {
			return false, false
		}
		want, ok := rewrite.StringValue(kids[1])
		if !ok {
			return false, false
		}
		got, ok := rewrite.StringValue(constructorLiteral(cls, kids[0].ChildByField("attribute").Text(), built))
		if !ok {
			return false, false
		}
		return (got == want) == (op == "=="), true
	}
	return false, false
}

// literalTruth is the truth of a literal: True, False, None or a string.
func literalTruth(lit *rewrite.Node) (value, known bool) {
	if lit == nil {
		return false, false
	}
	switch lit.Type {
	case "true":
		return true, true
	case "false", "none":
		return false, true
	}
	if s, ok := rewrite.StringValue(lit); ok {
		return s != "", true
	}
	return false, false
}

// constructorLiteral returns the expression a construction of cls gives
// self.<name>: __init__ assigns it a parameter, which built passes (by
// keyword or position) or leaves at its default. Nil when the attribute
// is not such a copy or the value is not a literal.
func constructorLiteral(cls *rewrite.Node, name string, built *rewrite.Node) *rewrite.Node {
	init := rewrite.MethodOf(cls, "__init__")
	if init == nil || built == nil || built.Type != "call" {
		return nil
	}
	param := ""
	assigned := 0
	init.Walk(func(n *rewrite.Node) bool {
		if n.Type == "assignment" && selfAttribute(n.ChildByField("left")) && n.ChildByField("left").ChildByField("attribute").Text() == name {
			assigned++
			if r := n.ChildByField("right"); r != nil && r.Type == "identifier" {
				param = r.Text()
			}
		}
		return true
	})
	if param == "" || assigned != 1 {
		return nil
	}
	pos := -1 // the parameter's position among the call's arguments (self excluded)
	var def *rewrite.Node
	for i, prm := range init.ChildByField("parameters").NamedChildren() {
		if id := rewrite.ParamName(prm); id != nil && id.Text() == param {
			pos = i - 1
			def = prm.ChildByField("value")
		}
	}
	if pos < 0 {
		return nil
	}
	v := rewrite.Arg(built, pos, param)
	if v == nil {
		v = def
	}
	if v == nil || !v.Is("string", "true", "false", "none") {
		return nil
	}
	return v
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// RebuiltMatrix is XGB006.
var RebuiltMatrix = &Rule{
	Code:      "XGB006",
	Name:      "xgboost-rebuilt-matrix",
	Title:     "Build the DMatrix once before a loop over label columns and set_label(...) inside",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"xgboost"},
	Names:     []string{"DMatrix", "QuantileDMatrix"}, // the finding is an xgboost.DMatrix/QuantileDMatrix(...) call, whose callee spelling ends in one of them
	Check:     checkRebuiltMatrix,
}

func init() { Register(RebuiltMatrix) }

func checkRebuiltMatrix(p *Pass) {
	m := p.Model
	for _, call := range m.CallsTo("xgboost.DMatrix", "xgboost.core.DMatrix", "xgboost.QuantileDMatrix", "xgboost.core.QuantileDMatrix") {
		assign := call.Parent
		if assign == nil || assign.Type != "assignment" || assign.ChildByField("right") != call || rewrite.HasSplat(call) {
			continue
		}
		target := assign.ChildByField("left")
		stmt := assign.Parent
		if target.Type != "identifier" || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
			continue
		}
		loop := stmt.Parent.Parent // statement -> block -> loop
		if stmt.Parent.Type != "block" || loop == nil || !rewrite.IsLoop(loop) || rewrite.LoopBody(loop) != stmt.Parent {
			continue
		}
		label, labelArg := matrixLabel(call)
		if label == nil || !xgb6LoopVariant(m, label, loop) {
			continue
		}
		invariant := true
		for _, a := range call.ChildByField("arguments").NamedChildren() {
			if a == labelArg || a.Type == "comment" {
				continue
			}
			if !xgb6Invariant(m, a, loop) {
				invariant = false
			}
		}
		if !invariant || !xgb6FeaturesUntouched(m, call, labelArg, loop) || !xgb6MatrixUsesOK(m, target, stmt, loop) {
			continue
		}
		msg := "this matrix is rebuilt every iteration from the same features: build it once before the loop and call " + target.Text() + ".set_label(...) inside"
		fix := xgb6Fix(p, call, labelArg, label, assign, loop, target.Text())
		if fix == nil {
			p.Report(call, msg+" (by hand: the constructor spans several lines)", nil)
			continue
		}
		p.Report(call, msg, fix)
	}
}

// matrixLabel returns the label expression of a DMatrix/QuantileDMatrix
// call (label= or the second positional argument) and the argument node
// that carries it.
func matrixLabel(call *rewrite.Node) (value, arg *rewrite.Node) {
	if kw := rewrite.KeywordArg(call, "label"); kw != nil {
		return kw.ChildByField("value"), kw
	}
	if pos := rewrite.PositionalArgs(call); len(pos) >= 2 {
		return pos[1], pos[1]
	}
	return nil, nil
}

// xgb6LoopNames returns the names a loop binds: its targets and every name
// its body assigns, in the loop's scope.
func xgb6LoopNames(m *rewrite.Model, loop *rewrite.Node) map[string]bool {
	out := map[string]bool{}
	for name := range m.BoundNames(loop) {
		out[name] = true
	}
	return out
}

// xgb6LoopVariant reports whether expr reads a name the loop binds.
func xgb6LoopVariant(m *rewrite.Model, expr, loop *rewrite.Node) bool {
	bound := xgb6LoopNames(m, loop)
	for name := range m.ReadNames(expr) {
		if bound[name] {
			return true
		}
	}
	return false
}

// xgb6PureMethods are methods that return a new value without changing
// their receiver (pandas' drop/fillna only without inplace=True).
var xgb6PureMethods = map[string]bool{
	"astype": true, "to_numpy": true, "to_pandas": true, "to_cupy": true, "reshape": true,
	"copy": true, "drop": true, "fillna": true, "select_dtypes": true, "filter": true,
}

// xgb6Invariant reports whether expr evaluates to the same value at every
// iteration of loop without side effects: it reads no name the loop binds or
// changes in place, and calls only NumPy / pandas / CuPy functions (not
// random ones) or pure conversion methods.
func xgb6Invariant(m *rewrite.Model, expr, loop *rewrite.Node) bool {
	bound := xgb6LoopNames(m, loop)
	mutated := rewrite.MutatedNames(loop)
	ok := true
	expr.Walk(func(n *rewrite.Node) bool {
		if !ok {
			return false
		}
		switch n.Type {
		case "identifier":
			if m.IsRead(n) && (bound[n.Text()] || mutated[n.Text()]) {
				ok = false
			}
		case "call":
			if !xgb6PureCall(m, n) {
				ok = false
			}
		case "lambda", "named_expression", "await", "yield", "list_comprehension", "generator_expression",
			"set_comprehension", "dictionary_comprehension", "conditional_expression":
			ok = false
		}
		return ok
	})
	return ok
}

// xgb6FeaturesUntouched checks the names the constructor reads (label
// aside): each is bound before the loop only, and elsewhere in the loop it
// is only read through attributes or pure calls, never handed to code that
// could change it (a function call, a method that is not a pure conversion).
func xgb6FeaturesUntouched(m *rewrite.Model, call, labelArg, loop *rewrite.Node) bool {
	for _, a := range call.ChildByField("arguments").NamedChildren() {
		if a == labelArg {
			continue
		}
		ok := true
		a.Walk(func(n *rewrite.Node) bool {
			if !ok || n.Type != "identifier" || !m.IsRead(n) {
				return ok
			}
			s := m.VarScope(n)
			if s == nil {
				return true // a builtin
			}
			for _, b := range s.Bindings[n.Text()] {
				if b.Stmt != nil && b.Stmt.Start >= loop.Start && m.ScopeOf(b.Ident) == m.ScopeOf(loop) {
					ok = false
				}
			}
			for _, r := range m.Reads(s, n.Text(), rewrite.LoopBody(loop)) {
				if !call.Contains(r) && !xgb6HarmlessRead(m, r) {
					ok = false
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// xgb6HarmlessRead reports whether a read of a feature name cannot change
// it: an attribute read (not a method call other than a pure one), a
// subscript read, or an argument of a pure call.
func xgb6HarmlessRead(m *rewrite.Model, id *rewrite.Node) bool {
	par := id.Parent
	switch {
	case par.Type == "attribute" && par.ChildByField("object") == id:
		if par.Parent != nil && par.Parent.Type == "call" && par.Parent.ChildByField("function") == par {
			return xgb6PureCall(m, par.Parent)
		}
		return !xgb6IsStoreTarget(par)
	case par.Type == "subscript" && par.ChildByField("value") == id:
		return !xgb6IsStoreTarget(par)
	case par.Type == "argument_list":
		return xgb6PureCall(m, par.Parent)
	}
	return false
}

// xgb6IsStoreTarget reports whether n is (part of) an assignment target.
func xgb6IsStoreTarget(n *rewrite.Node) bool {
	for ; n.Parent != nil; n = n.Parent {
		if n.Parent.Is("assignment", "augmented_assignment") && n.Parent.ChildByField("left") == n {
			return true
		}
		if !n.Parent.Is("attribute", "subscript", "pattern_list", "tuple_pattern") {
			return false
		}
	}
	return false
}

// xgb6PureCall reports whether a call is one xgb6Invariant accepts.
func xgb6PureCall(m *rewrite.Model, call *rewrite.Node) bool {
	if rewrite.HasSplat(call) {
		return false
	}
	q := m.CalleeName(call)
	for _, lib := range []string{"numpy.", "pandas.", "cupy."} {
		if strings.HasPrefix(q, lib) {
			return !strings.HasPrefix(q, lib+"random") && !strings.Contains(q, ".cuda.")
		}
	}
	fn := call.ChildByField("function")
	if fn.Type != "attribute" || !xgb6PureMethods[fn.ChildByField("attribute").Text()] {
		return false
	}
	if v := rewrite.KeywordValue(call, "inplace"); v != nil && v.Type != "false" {
		return false
	}
	return true
}

// xgb6MatrixUsesOK checks the matrix name: bound only by this statement,
// read only inside the loop after it, and only passed to training,
// evaluation or prediction, or asked for labels and shapes.
func xgb6MatrixUsesOK(m *rewrite.Model, target, stmt, loop *rewrite.Node) bool {
	s := m.VarScope(target)
	if s == nil || s != m.ScopeOf(loop) || len(s.Bindings[target.Text()]) != 1 || s.Kind == rewrite.ClassScope {
		return false
	}
	for _, id := range m.Occurrences(s, target.Text(), m.File.Root) {
		if id == target {
			continue
		}
		if !loop.Contains(id) || id.Start < stmt.End || m.ScopeOf(id) != s {
			return false
		}
		if !xgb6SafeUse(m, id) {
			return false
		}
	}
	return true
}

// xgb6SafeUse reports whether one read of the matrix leaves no reference
// to it behind: an argument of xgb.train / xgb.cv (directly or in the evals
// list literal), of predict / inplace_predict, or a label / shape query.
func xgb6SafeUse(m *rewrite.Model, id *rewrite.Node) bool {
	par := id.Parent
	if par.Type == "attribute" && par.ChildByField("object") == id {
		switch par.ChildByField("attribute").Text() {
		case "get_label", "num_row", "num_col", "get_weight", "feature_names", "feature_types":
			return true
		}
		return false
	}
	// evals=[(d, "train"), ...] written in the call.
	if par.Type == "tuple" && par.Parent != nil && par.Parent.Type == "list" {
		list := par.Parent
		if list.Parent != nil && list.Parent.Type == "keyword_argument" {
			list = list.Parent
		}
		if list.Parent == nil || list.Parent.Type != "argument_list" {
			return false
		}
		par = list.Parent
		id = list
	}
	if par.Type == "keyword_argument" {
		id = par
		par = par.Parent
	}
	if par.Type != "argument_list" {
		return false
	}
	call := par.Parent
	switch m.CalleeName(call) {
	case "xgboost.train", "xgboost.cv", "xgboost.training.train", "xgboost.training.cv":
		return true
	}
	fn := call.ChildByField("function")
	if fn.Type == "attribute" {
		switch fn.ChildByField("attribute").Text() {
		case "predict", "inplace_predict", "eval":
			return true
		}
	}
	return false
}

// xgb6Fix builds the edits: the constructor without its label, on its own
// line before the loop, and `name.set_label(label)` in place of the
// assignment. nil when the constructor spans several lines or the loop
// does not start its line.
func xgb6Fix(p *Pass, call, labelArg, label, assign, loop *rewrite.Node, name string) *rewrite.Fix {
	src := p.File.Src
	if src.LineOf(call.Start) != src.LineOf(call.End) {
		return nil
	}
	del := rewrite.DeleteArgEdit(labelArg)
	text := src.Text(call.Start, del.Start) + del.New + src.Text(del.End, call.End)
	before, ok := rewrite.InsertBeforeEdit(loop, name+" = "+text)
	if !ok {
		return nil
	}
	set := rewrite.Edit{Start: assign.Start, End: assign.End, New: name + ".set_label(" + label.Text() + ")"}
	return Fix(rewrite.Unsafe, "Build the matrix once before the loop; set_label inside", before, set)
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// QuantileDMatrix is XGB001.
var QuantileDMatrix = &Rule{
	Code:            "XGB001",
	Name:            "xgboost-quantile-dmatrix",
	Title:           "Train on QuantileDMatrix, not DMatrix",
	Fix:             rewrite.Unsafe,
	Severity:        rewrite.Warning,
	Libraries:       []string{"xgboost"},
	Names:           []string{"DMatrix", "QuantileDMatrix"}, // every finding is a matrix bound from xgboost.DMatrix/QuantileDMatrix(...), whose callee spelling ends in one of them
	SkipTestModules: true,
	Check:           checkQuantileDMatrix,
}

func init() { Register(QuantileDMatrix) }

func checkQuantileDMatrix(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) {
		return
	}
	reported := map[*rewrite.Binding]bool{} // a matrix trained on twice is one finding
	for _, tc := range xgbTrainCalls(p) {
		if !tc.ParamsKnown || !treeMethodIsHist(tc.Params) {
			continue
		}
		if !tc.IsCV {
			checkMissingRef(p, tc)
		}
		if rewrite.KeywordArg(tc.Call, "xgb_model") != nil || tc.Params.get("updater") != nil || tc.Params.get("process_type") != nil {
			continue // continued training or custom updaters: the bins must match the old model's
		}
		train, arrived := trainedMatrix(p, tc.DTrain)
		if train == nil || reported[train] {
			continue
		}
		reported[train] = true
		ctor := train.Value
		if !matrixUsesAreSafe(p, train, arrived) {
			continue // used in a way gpuopt does not know (sliced, saved, handed on)
		}
		if tc.IsCV {
			p.Report(ctor, "xgb.cv trains on this DMatrix: a QuantileDMatrix saves memory and build time with hist (rewrite by hand: cv slices the matrix into folds)", nil)
			continue
		}
		edits, ok := toQuantile(p, ctor, "")
		if !ok {
			p.Report(ctor, "train on a QuantileDMatrix: with hist it bins the data once and keeps only the bins", nil)
			continue
		}
		// Validation matrices built after the training one in its scope
		// become QuantileDMatrix(..., ref=<training matrix>), in the same
		// fix, and are reported where they are built.
		var validations, kept []*rewrite.Binding
		for _, ev := range tc.Evals {
			valid, validArrived := trainedMatrix(p, ev)
			if valid == nil || valid == train || reported[valid] ||
				valid.Scope != train.Scope || valid.Stmt.Start < train.Stmt.End {
				continue
			}
			reported[valid] = true
			arrived = arrived || validArrived
			if !matrixUsesAreSafe(p, valid, arrived) {
				kept = append(kept, valid)
				continue
			}
			if more, ok := toQuantile(p, valid.Value, train.Name); ok {
				edits = append(edits, more...)
				validations = append(validations, valid)
			}
		}
		edits = dedupeEdits(edits)
		msg := "train on a QuantileDMatrix: with hist it bins the data once and keeps only the bins (validation matrices get ref= the training matrix)"
		applies := rewrite.Unsafe
		if arrived {
			// The matrix reaches xgb.train through a parameter or a
			// helper's return: its other uses on the way are not all seen.
			msg += "; assumes the matrices that reach xgb.train at line " + p.LineOf(tc.Call) + " are only trained on, evaluated and predicted on (a QuantileDMatrix cannot be sliced or saved)"
			applies = rewrite.Hint
		}
		fix := Fix(applies, "Use QuantileDMatrix (validation matrices with ref=)", edits...)
		p.Report(ctor, msg, fix)
		for _, v := range validations {
			same := *fix
			p.Report(v.Value, "this validation matrix of a hist training becomes QuantileDMatrix(..., ref="+train.Name+"): it reuses the training matrix's bins instead of building a DMatrix (fixed with the training matrix)", &same)
		}
		for _, v := range kept {
			p.Report(v.Value, "this validation matrix of a hist training could be a QuantileDMatrix with ref="+train.Name+" (the training matrix's bins), but it is also used in ways a QuantileDMatrix may not support (saved, sliced): rewrite it by hand", nil)
		}
	}
}

// trainedMatrix returns the binding of the DMatrix(...) a training call's
// matrix argument names: assigned to that name here, or arriving through a
// parameter, a call site's argument or a helper's return (arrived true),
// every way from one DMatrix assigned to a name in this file.
func trainedMatrix(p *Pass, n *rewrite.Node) (b *rewrite.Binding, arrived bool) {
	if b := dmatrixBinding(p, n); b != nil {
		return b, false
	}
	if n == nil || n.Type != "identifier" {
		return nil, false
	}
	for _, o := range p.Model.Origins(n) {
		if o.Annotation {
			continue // `dtrain: xgb.DMatrix` says what, not where from
		}
		if o.Expr == nil || o.Def != nil || o.Model != nil || o.Expr.Type != "call" {
			return nil, false
		}
		asg := o.Expr.Parent
		if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != o.Expr {
			return nil, false
		}
		target := asg.ChildByField("left")
		if target == nil || target.Type != "identifier" {
			return nil, false
		}
		one := dmatrixBinding(p, target)
		if one == nil || one.Value != o.Expr || b != nil && b != one {
			return nil, false
		}
		b = one
	}
	return b, b != nil
}

// checkMissingRef reports validation QuantileDMatrix objects built without
// ref= when the training matrix is a QuantileDMatrix too: each then bins
// the data with its own cuts and evaluation silently differs.
func checkMissingRef(p *Pass, tc *xgbTrainCall) {
	train := quantileBinding(p, tc.DTrain)
	if train == nil {
		return
	}
	for _, ev := range tc.Evals {
		valid := quantileBinding(p, ev)
		if valid == nil || valid == train || rewrite.KeywordArg(valid.Value, "ref") != nil || rewrite.HasSplat(valid.Value) {
			continue
		}
		var fix *rewrite.Fix
		if valid.Scope == train.Scope && valid.Stmt.Start > train.Stmt.End {
			if e, ok := rewrite.AppendItem(valid.Value.ChildByField("arguments"), "ref="+train.Name); ok {
				fix = Fix(rewrite.Unsafe, "Pass ref="+train.Name, e)
			}
		}
		p.Report(valid.Value, "this validation QuantileDMatrix has no ref=: it computes its own bins, so evaluation differs from training; pass ref="+train.Name, fix)
	}
}

// quantileBinding returns the binding of a name assigned exactly once from
// xgboost.QuantileDMatrix(...), or nil.
func quantileBinding(p *Pass, n *rewrite.Node) *rewrite.Binding {
	if n == nil || n.Type != "identifier" {
		return nil
	}
	b := p.Model.Binding(n)
	if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
		return nil
	}
	if q := p.Model.CalleeName(b.Value); q != "xgboost.QuantileDMatrix" && q != "xgboost.core.QuantileDMatrix" {
		return nil
	}
	return b
}

// dmatrixBinding returns the binding of a name assigned exactly once from
// xgboost.DMatrix(...), or nil.
func dmatrixBinding(p *Pass, n *rewrite.Node) *rewrite.Binding {
	if n == nil || n.Type != "identifier" {
		return nil
	}
	b := p.Model.Binding(n)
	if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
		return nil
	}
	switch p.Model.CalleeName(b.Value) {
	case "xgboost.DMatrix", "xgboost.core.DMatrix":
	default:
		return nil
	}
	data := rewrite.Arg(b.Value, 0, "data")
	if data == nil || mayBePath(p, data, 0) || rewrite.HasSplat(b.Value) ||
		rewrite.KeywordArg(b.Value, "data_split_mode") != nil {
		return nil // file paths and distributed splits need DMatrix
	}
	return b
}

// mayBePath reports whether a DMatrix's data argument may be a file path or
// URI (which only DMatrix can load): strings, os.path / pathlib calls,
// str(...), string concatenation, and names that say they hold a path.
func mayBePath(p *Pass, data *rewrite.Node, depth int) bool {
	if depth > 4 {
		return true
	}
	switch data.Type {
	case "string", "concatenated_string":
		return true
	case "call":
		q := p.Model.CalleeName(data)
		fn := data.ChildByField("function")
		if q == "str" || q == "open" || strings.HasPrefix(q, "os.") || strings.HasPrefix(q, "pathlib.") || strings.HasPrefix(q, "urllib.") {
			return true
		}
		if fn.Type == "attribute" && fn.ChildByField("object").Is("string") {
			return true // "...".format(...), "".join(...)
		}
	case "binary_operator":
		for _, c := range data.NamedChildren() {
			if mayBePath(p, c, depth+1) {
				return true
			}
		}
	case "identifier":
		name := strings.ToLower(data.Text())
		for _, hint := range []string{"path", "file", "uri", "url", "fname", "dir", "csv", "svm"} {
			if strings.Contains(name, hint) {
				return true
			}
		}
		if v := p.Model.ValueOf(data); v != nil {
			return mayBePath(p, v, depth+1)
		}
	}
	return false
}

// matrixUsesAreSafe reports whether every read of a matrix is training,
// evaluation, prediction or a label/shape query.
// A returned matrix counts only with returned true: the caller followed
// the return to a training call and offers the fix as a hint.
func matrixUsesAreSafe(p *Pass, b *rewrite.Binding, returned bool) bool {
	for _, use := range b.Uses {
		if !matrixUseIsSafe(p, use, returned) {
			return false
		}
	}
	return true
}

func matrixUseIsSafe(p *Pass, use *rewrite.Node, returned bool) bool {
	par := use.Parent
	switch {
	case par.Type == "attribute" && par.ChildByField("object") == use:
		switch par.ChildByField("attribute").Text() {
		case "get_label", "num_row", "num_col", "feature_names", "feature_types", "get_weight", "set_label", "set_weight", "set_base_margin",
			"set_info", "set_group", "get_group", "get_base_margin", "get_float_info", "get_uint_info", "set_float_info", "set_uint_info", "num_nonmissing":
			// Meta information: a QuantileDMatrix is a DMatrix there.
			return true
		}
		return false
	case par.Type == "argument_list" || par.Type == "keyword_argument":
		call := par.Ancestor("call")
		q := p.Model.CalleeName(call)
		fn := call.ChildByField("function")
		if q == "xgboost.train" || q == "xgboost.cv" || q == "xgboost.training.train" || q == "len" {
			return true
		}
		return fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "predict" || fn.ChildByField("attribute").Text() == "inplace_predict")
	case par.Type == "tuple" && par.Parent.Is("list", "tuple"):
		return true // an evals entry
	case par.Type == "delete_statement" || par.Type == "expression_list" && par.Parent.Type == "delete_statement":
		return true // `del dtrain` frees it, whatever it is
	case returned && (par.Type == "return_statement" || par.Type == "expression_list" && par.Parent.Type == "return_statement"):
		return true
	}
	return false
}

// toQuantile rewrites a DMatrix(...) constructor call to QuantileDMatrix,
// adding ref=<ref> when ref is not empty.
func toQuantile(p *Pass, ctor *rewrite.Node, ref string) ([]rewrite.Edit, bool) {
	fn := ctor.ChildByField("function")
	var edits []rewrite.Edit
	switch fn.Type {
	case "attribute":
		attr := fn.ChildByField("attribute")
		edits = append(edits, rewrite.Edit{Start: attr.Start, End: attr.End, New: "QuantileDMatrix"})
	case "identifier":
		name, ok := p.Model.LocalName(ctor, "xgboost.QuantileDMatrix")
		if !ok {
			imp, ok := p.Model.AddImport("xgboost", "QuantileDMatrix")
			if !ok {
				return nil, false
			}
			if imp.New != "" {
				edits = append(edits, imp)
			}
			name = "QuantileDMatrix"
		}
		edits = append(edits, rewrite.Edit{Start: fn.Start, End: fn.End, New: name})
	default:
		return nil, false
	}
	if ref != "" && rewrite.KeywordArg(ctor, "ref") == nil {
		e, ok := rewrite.AppendItem(ctor.ChildByField("arguments"), "ref="+ref)
		if !ok {
			return nil, false
		}
		edits = append(edits, e)
	}
	return edits, true
}

// dedupeEdits drops exact duplicate edits (two rewrites adding the same
// import).
func dedupeEdits(edits []rewrite.Edit) []rewrite.Edit {
	seen := map[rewrite.Edit]bool{}
	out := edits[:0]
	for _, e := range edits {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

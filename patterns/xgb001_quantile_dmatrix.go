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
		train := dmatrixBinding(p, tc.DTrain)
		if train == nil || reported[train] || !matrixUsesAreSafe(p, train) {
			continue
		}
		reported[train] = true
		ctor := train.Value
		if tc.IsCV {
			p.Report(ctor, "xgb.cv trains on this DMatrix: a QuantileDMatrix saves memory and build time with hist (rewrite by hand: cv slices the matrix into folds)", nil)
			continue
		}
		edits, ok := toQuantile(p, ctor, "")
		if !ok {
			p.Report(ctor, "train on a QuantileDMatrix: with hist it bins the data once and keeps only the bins", nil)
			continue
		}
		for _, ev := range tc.Evals {
			valid := dmatrixBinding(p, ev)
			if valid == nil || valid == train || !matrixUsesAreSafe(p, valid) ||
				valid.Scope != train.Scope || valid.Stmt.Start < train.Stmt.End {
				continue
			}
			more, ok := toQuantile(p, valid.Value, train.Name)
			if ok {
				edits = append(edits, more...)
			}
		}
		edits = dedupeEdits(edits)
		p.Report(ctor, "train on a QuantileDMatrix: with hist it bins the data once and keeps only the bins (validation matrices get ref= the training matrix)",
			Fix(rewrite.Unsafe, "Use QuantileDMatrix (validation matrices with ref=)", edits...))
	}
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
func matrixUsesAreSafe(p *Pass, b *rewrite.Binding) bool {
	for _, use := range b.Uses {
		par := use.Parent
		switch {
		case par.Type == "attribute" && par.ChildByField("object") == use:
			switch par.ChildByField("attribute").Text() {
			case "get_label", "num_row", "num_col", "feature_names", "feature_types", "get_weight", "set_label", "set_weight", "set_base_margin":
				continue
			}
			return false
		case par.Type == "argument_list" || par.Type == "keyword_argument":
			call := par.Ancestor("call")
			q := p.Model.CalleeName(call)
			fn := call.ChildByField("function")
			if q == "xgboost.train" || q == "xgboost.cv" || q == "xgboost.training.train" || q == "len" {
				continue
			}
			if fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "predict" || fn.ChildByField("attribute").Text() == "inplace_predict") {
				continue
			}
			return false
		case par.Type == "tuple" && par.Parent.Is("list", "tuple"):
			continue // an evals entry
		default:
			return false
		}
	}
	return true
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

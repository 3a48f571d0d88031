package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// xgbTrainCall is a call of xgboost.train or xgboost.cv, with its resolved
// parameter group (nil when the parameters cannot be seen).
type xgbTrainCall struct {
	Call   *rewrite.Node
	IsCV   bool
	Params *paramGroup
	// ParamsKnown is false when params is not a dict literal this file
	// shows (a function argument, a dict built elsewhere).
	ParamsKnown bool
	DTrain      *rewrite.Node
	Evals       []*rewrite.Node // the matrices named in evals
}

// xgbTrainCalls finds every xgboost.train / xgboost.cv call.
func xgbTrainCalls(p *Pass) []*xgbTrainCall {
	return p.Memo("xgb.trainCalls", func() any { return findTrainCalls(p) }).([]*xgbTrainCall)
}

func findTrainCalls(p *Pass) []*xgbTrainCall {
	m := p.Model
	var out []*xgbTrainCall
	var groups []*paramGroup
	for _, n := range m.CallsTo("xgboost.train", "xgboost.cv", "xgboost.training.train", "xgboost.training.cv") {
		q := m.CalleeName(n)
		if groups == nil {
			groups = xgbParamGroups(p)
		}
		tc := &xgbTrainCall{Call: n, IsCV: strings.HasSuffix(q, ".cv"), DTrain: rewrite.Arg(n, 1, "dtrain")}
		tc.Params, tc.ParamsKnown = trainParams(p, rewrite.Arg(n, 0, "params"), groups)
		if ev := rewrite.Arg(n, 3, "evals"); ev != nil && !tc.IsCV {
			if v := m.ValueOf(ev); v != nil {
				ev = v
			}
			if ev.Is("list", "tuple") {
				for _, pair := range ev.NamedChildren() {
					if pair.Type == "tuple" && len(pair.NamedChildren()) == 2 {
						tc.Evals = append(tc.Evals, pair.NamedChildren()[0])
					}
				}
			}
		}
		out = append(out, tc)
	}
	return out
}

// trainParams resolves the params argument to a dict literal's group. A
// dict that is later changed through subscripts is merged with them.
func trainParams(p *Pass, arg *rewrite.Node, groups []*paramGroup) (*paramGroup, bool) {
	if arg == nil {
		return &paramGroup{}, true // xgb.train() without params: all defaults
	}
	dict := arg
	var b *rewrite.Binding
	if arg.Type == "identifier" {
		// The params assigned last before the call (a demo may rebind
		// `param` between trainings).
		b = p.Model.ReachingBinding(arg, arg)
		if b == nil || b.Kind != rewrite.AssignBinding {
			return nil, false
		}
		dict = b.Value
	}
	if dict == nil || !dict.Is("dictionary", "call") {
		return nil, false
	}
	if dict.Type == "call" && p.Model.CalleeName(dict) != "dict" {
		return nil, false
	}
	var g *paramGroup
	for _, cand := range groups {
		if cand.Container == dict || (cand.Container != nil && cand.Container.Parent == dict) {
			g = cand
		}
	}
	if g == nil {
		g = &paramGroup{Container: dict}
		if dict.Type == "call" {
			g.Container = dict.ChildByField("arguments")
		}
	}
	if b == nil {
		return g, true
	}
	// Any other use that may change the dict (params.update(...), passed to
	// a function) makes its content unknown; params["k"] = v is merged.
	merged := &paramGroup{Container: g.Container, Entries: append([]*xgbParam(nil), g.Entries...)}
	next := len(p.File.Src.Bytes) // where the next binding of the name starts
	for _, o := range p.Model.Bindings(arg) {
		if o != b && o.Stmt != nil && o.Stmt.Start > b.Stmt.Start && o.Stmt.Start < next {
			next = o.Stmt.Start
		}
	}
	uses := b.Uses
	if len(p.Model.Bindings(arg)) > 1 && slices.IsSortedFunc(uses, func(x, y *rewrite.Node) int { return x.Start - y.Start }) {
		// The uses of this binding only: a window of the name's uses,
		// found by binary search (a script rebinding params per training
		// would otherwise cost the square of its trainings).
		lo, _ := slices.BinarySearchFunc(uses, b.Stmt.Start, func(x *rewrite.Node, t int) int { return x.Start - t })
		hi, _ := slices.BinarySearchFunc(uses, next, func(x *rewrite.Node, t int) int { return x.Start - t })
		uses = uses[lo:hi]
	}
	for _, use := range uses {
		if use.Start < b.Stmt.Start || use.Start >= next {
			continue // a use of another binding of the name
		}
		parent := use.Parent
		switch {
		case parent.Type == "argument_list":
		case parent.Type == "keyword_argument" && parent.ChildByField("value") == use: // xgb.train(params=params, ...)
		case parent.Type == "subscript" && parent.Parent.Type == "assignment" && parent.Parent.ChildByField("left") == parent:
			for _, cand := range groups {
				if len(cand.Entries) == 1 && cand.Entries[0].Form == subscriptForm && cand.Entries[0].Item.Contains(use) {
					merged.Entries = append(merged.Entries, cand.Entries[0])
				}
			}
		case parent.Type == "subscript":
		default:
			return nil, false
		}
	}
	return merged, true
}

// treeMethodIsHist reports whether params train with hist (set explicitly,
// or unset, the default since XGBoost 2.0).
func treeMethodIsHist(g *paramGroup) bool {
	e := g.get("tree_method")
	if e == nil {
		return true
	}
	v, ok := rewrite.StringValue(e.Value)
	return ok && (v == "hist" || v == "gpu_hist" || v == "auto")
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// This file finds XGBoost parameters wherever the XGB rules look for them:
// dict literals and dict(...) calls, scikit-learn estimator keywords,
// set_params(...) keywords, Booster.set_param("key", value) and
// params["key"] = value.

// paramForm is how a parameter is spelled.
type paramForm int

const (
	dictForm      paramForm = iota // {"tree_method": "hist"}
	kwargForm                      // XGBClassifier(tree_method="hist"), dict(tree_method=...)
	subscriptForm                  // params["tree_method"] = "hist"
	setParamForm                   // booster.set_param("tree_method", "hist")
)

// xgbParam is one key/value entry.
type xgbParam struct {
	Key     string
	KeyNode *rewrite.Node // the key string or keyword name
	Value   *rewrite.Node
	// Item is what deleting the entry removes: a pair, a keyword_argument,
	// an expression statement (subscript form) or the set_param call.
	Item  *rewrite.Node
	Form  paramForm
	Group *paramGroup
}

// paramGroup is one set of parameters that belong together: a dict, an
// estimator call's keywords, or the subscript assignments of one statement.
type paramGroup struct {
	Container *rewrite.Node // dictionary / argument_list; nil for statements
	Entries   []*xgbParam
}

func (g *paramGroup) get(key string) *xgbParam {
	for _, e := range g.Entries {
		if e.Key == key {
			return e
		}
	}
	return nil
}

// xgbEstimators are the scikit-learn wrappers that take parameters as
// keywords.
var xgbEstimators = map[string]bool{
	"XGBClassifier": true, "XGBRegressor": true, "XGBRanker": true,
	"XGBRFClassifier": true, "XGBRFRegressor": true, "XGBModel": true,
}

// isXGBEstimator reports whether q names an xgboost scikit-learn wrapper
// (xgboost.XGBClassifier, xgboost.sklearn.XGBRegressor, xgboost.dask...).
func isXGBEstimator(q string) bool {
	if !strings.HasPrefix(q, "xgboost.") {
		return false
	}
	return xgbEstimators[q[strings.LastIndex(q, ".")+1:]]
}

// xgbParamGroups returns every parameter group in a file that imports
// xgboost. Dict literals count only when they hold a key that exists in
// XGBoost alone (tree_method, gpu_id, predictor) or feed xgb.train.
func xgbParamGroups(p *Pass) []*paramGroup {
	return p.Memo("xgb.paramGroups", func() any { return findParamGroups(p) }).([]*paramGroup)
}

func findParamGroups(p *Pass) []*paramGroup {
	m := p.Model
	var groups []*paramGroup
	// The index, not a walk of the tree: the groups come in source order.
	for _, n := range p.File.OfTypes("dictionary", "call", "assignment") {
		switch n.Type {
		case "dictionary":
			g := &paramGroup{Container: n}
			for _, pair := range n.NamedChildren() {
				if pair.Type != "pair" {
					if pair.Type == "dictionary_splat" {
						continue
					}
					continue
				}
				k, ok := rewrite.StringValue(pair.ChildByField("key"))
				if !ok {
					continue
				}
				g.Entries = append(g.Entries, &xgbParam{Key: k, KeyNode: pair.ChildByField("key"), Value: pair.ChildByField("value"), Item: pair, Form: dictForm, Group: g})
			}
			if len(g.Entries) > 0 {
				groups = append(groups, g)
			}
		case "call":
			q := m.CalleeName(n)
			fn := n.ChildByField("function")
			method := ""
			if fn != nil && fn.Type == "attribute" {
				method = fn.ChildByField("attribute").Text()
			}
			args := n.ChildByField("arguments")
			switch {
			case isXGBEstimator(q) || q == "dict" || method == "set_params":
				g := &paramGroup{Container: args}
				for _, a := range args.NamedChildren() {
					if a.Type == "keyword_argument" {
						name := a.ChildByField("name")
						g.Entries = append(g.Entries, &xgbParam{Key: name.Text(), KeyNode: name, Value: a.ChildByField("value"), Item: a, Form: kwargForm, Group: g})
					}
				}
				if len(g.Entries) > 0 {
					groups = append(groups, g)
				}
			case method == "set_param":
				pos := rewrite.PositionalArgs(n)
				if len(pos) == 2 && len(args.NamedChildren()) == 2 {
					if k, ok := rewrite.StringValue(pos[0]); ok {
						g := &paramGroup{}
						g.Entries = append(g.Entries, &xgbParam{Key: k, KeyNode: pos[0], Value: pos[1], Item: n, Form: setParamForm, Group: g})
						groups = append(groups, g)
					}
				}
			}
		case "assignment":
			left := n.ChildByField("left")
			if left != nil && left.Type == "subscript" && n.Parent.Type == "expression_statement" {
				k, ok := rewrite.StringValue(left.ChildByField("subscript"))
				if ok {
					g := &paramGroup{}
					g.Entries = append(g.Entries, &xgbParam{Key: k, KeyNode: left.ChildByField("subscript"), Value: n.ChildByField("right"), Item: n.Parent, Form: subscriptForm, Group: g})
					groups = append(groups, g)
				}
			}
		}
	}
	return groups
}

// isXGBGroup reports whether a dict is XGBoost's parameters: it holds one of
// XGBoost's own keys besides the one being checked.
func isXGBGroup(g *paramGroup, except string) bool {
	for _, k := range []string{"tree_method", "gpu_id", "predictor", "max_bin", "booster", "eval_metric", "device", "objective", "max_depth", "eta"} {
		if k != except && g.get(k) != nil {
			return true
		}
	}
	return false
}

// render spells key=value in the style of the entry it goes next to.
func (e *xgbParam) render(key, value string) string {
	switch e.Form {
	case kwargForm:
		return key + "=" + rewrite.QuoteLike(e.Value, value)
	default:
		return rewrite.QuoteLike(e.KeyNode, key) + ": " + rewrite.QuoteLike(e.KeyNode, value)
	}
}

// addAfter returns the edit that adds key=value right after entry e (for
// the statement forms: a new statement on the next line).
func (e *xgbParam) addAfter(key, value string) rewrite.Edit {
	src := e.Item.File().Src
	switch e.Form {
	case subscriptForm:
		target := e.Item.NamedChildren()[0].ChildByField("left").ChildByField("value").Text()
		line := src.LineOf(e.Item.End)
		end := src.LineEnd(line)
		stmt := target + "[" + rewrite.QuoteLike(e.KeyNode, key) + "] = " + rewrite.QuoteLike(e.KeyNode, value)
		return rewrite.Edit{Start: end, End: end, New: src.LineEnding + src.IndentOf(e.Item.Start) + stmt}
	default:
		return rewrite.Edit{Start: e.Item.End, End: e.Item.End, New: ", " + e.render(key, value)}
	}
}

// replaceValue returns the edit that sets the entry's value to the string
// value, keeping the literal's quotes.
func (e *xgbParam) replaceValue(value string) rewrite.Edit {
	return rewrite.Edit{Start: e.Value.Start, End: e.Value.End, New: rewrite.QuoteLike(e.Value, value)}
}

// File returns the file the entry is in.
func (e *xgbParam) File() *rewrite.File { return e.Item.File() }

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Helpers shared by the cuDF rules: where a pandas frame read from a file
// goes.

// pandasReaders are the pandas readers whose frames the cuDF rules follow;
// the value is true where cuDF has the same reader (`cudf.read_csv`).
var pandasReaders = map[string]bool{
	"read_csv": true, "read_parquet": true, "read_feather": false, "read_orc": true, "read_json": false,
}

// pandasReader returns the reader's name ("read_csv") when call reads a
// file with pandas.
func pandasReader(m *rewrite.Model, call *rewrite.Node) (string, bool) {
	name, ok := strings.CutPrefix(m.CalleeName(call), "pandas.")
	if _, known := pandasReaders[name]; !ok || !known {
		return "", false
	}
	return name, true
}

// frameFlow is what happens to the frame a pandas reader returns.
type frameFlow struct {
	// XGBoost lists the XGBoost calls the frame (or a part of it) is passed
	// to: DMatrix / QuantileDMatrix, an estimator's fit / predict.
	XGBoost []*rewrite.Node
	// GPUTraining names the GPU training the frame feeds ("" for none):
	// XGBoost with device="cuda", a CUDA tensor built from its values.
	GPUTraining string
	// Plain is "" when every use of the frame is one cuDF supports the
	// same way (column selection, drop/fillna-style methods, XGBoost);
	// otherwise it names the first other use.
	Plain string
	// Other names the first call of another library the frame (or its
	// values) is handed to that wants host data: a scikit-learn estimator
	// or search (`GridSearchCV(...).fit(X, y)`), "" for none.
	Other string
}

// frameMethods are DataFrame methods that return a frame in pandas and
// cuDF alike.
var frameMethods = map[string]bool{
	"drop": true, "dropna": true, "fillna": true, "astype": true, "copy": true, "reset_index": true,
	"sort_values": true, "head": true, "tail": true, "rename": true, "select_dtypes": true,
	"sample": true, "query": true, "set_index": true,
}

// followFrame follows the frame read by call through names, column
// selections and methods to its consumers.
func followFrame(p *Pass, call *rewrite.Node) *frameFlow {
	ff := &frameFlow{}
	seen := map[*rewrite.Node]bool{}
	bound := map[*rewrite.Binding]bool{}
	var follow, followName func(e *rewrite.Node, values bool)
	var split func(e, call *rewrite.Node, values bool) bool
	notPlain := func(n *rewrite.Node) {
		if ff.Plain == "" {
			ff.Plain = strings.SplitN(n.Text(), "\n", 2)[0]
		}
	}
	follow = func(e *rewrite.Node, values bool) {
		if seen[e] || len(seen) > 500 {
			return
		}
		seen[e] = true
		par := e.Parent
		switch par.Type {
		case "parenthesized_expression":
			follow(par, values)
		case "subscript":
			if par.ChildByField("value") != e {
				notPlain(par)
				return
			}
			if asg := par.Parent; asg.Is("assignment", "augmented_assignment") && asg.ChildByField("left") == par {
				return // df["c"] = ...: a column written
			}
			follow(par, values)
		case "attribute":
			attr := par.ChildByField("attribute").Text()
			called := par.Parent.Type == "call" && par.Parent.ChildByField("function") == par
			switch {
			case attr == "values" && !called:
				notPlain(par)
				follow(par, true)
			case attr == "to_numpy" && called:
				notPlain(par.Parent)
				follow(par.Parent, true)
			case (attr == "iloc" || attr == "loc") && !called:
				follow(par, values)
			case frameMethods[attr] && called:
				follow(par.Parent, values)
			case !called && (attr == "columns" || attr == "shape" || attr == "dtypes" || attr == "index"):
			case values && called && (attr == "astype" || attr == "reshape"):
				follow(par.Parent, values)
			default:
				notPlain(par)
			}
		case "keyword_argument", "argument_list":
			c := par.Parent
			if par.Type == "keyword_argument" {
				c = par.Parent.Parent
			}
			if split(e, c, values) {
				return
			}
			ff.consumer(p, e, c, values, notPlain)
		case "tuple":
			// eval_set=[(X_va, y_va)] of an XGBoost estimator's fit
			if l := par.Parent; l.Type == "list" && l.Parent.Type == "keyword_argument" && l.Parent.ChildByField("name").Text() == "eval_set" &&
				l.Parent.Parent != nil && xgbFitCall(p, l.Parent.Parent.Parent) {
				return
			}
			notPlain(par)
		case "expression_list":
			// `X_tr, X_va = X.iloc[tr], X.iloc[va]`: each item to its name.
			asg := par.Parent
			if asg.Type != "assignment" || asg.ChildByField("right") != par {
				notPlain(par)
				return
			}
			targets := asg.ChildByField("left")
			items := par.NamedChildren()
			if !targets.Is("pattern_list", "tuple_pattern") || len(targets.NamedChildren()) != len(items) {
				notPlain(par)
				return
			}
			for i, it := range items {
				if it == e {
					followName(targets.NamedChildren()[i], values)
				}
			}
		case "assignment":
			left := par.ChildByField("left")
			if par.ChildByField("right") != e || left.Type != "identifier" {
				notPlain(par)
				return
			}
			followName(left, values)
		case "expression_statement":
		default:
			notPlain(par)
		}
	}
	// followName follows the frame into the reads of a name it is
	// assigned to.
	followName = func(left *rewrite.Node, values bool) {
		m := p.Model
		if left.Type != "identifier" {
			notPlain(left)
			return
		}
		{
			par := left.Parent
			if par.Type != "assignment" {
				par = left
			}
			s := m.VarScope(left)
			if s == nil {
				notPlain(par)
				return
			}
			bs := s.Bindings[left.Text()]
			for _, b := range bs {
				unpacked := b.Kind == rewrite.AssignBinding && b.Stmt == left.Ancestor("assignment")
				if (b.Kind != rewrite.AssignBinding || b.Value == nil) && !unpacked {
					notPlain(b.Stmt) // the name may hold something else
				}
			}
			for _, b := range bs {
				if bound[b] {
					continue
				}
				bound[b] = true
				for _, u := range b.Uses {
					follow(u, values)
				}
			}
		}
	}
	split = func(e, call *rewrite.Node, values bool) bool {
		// train_test_split(X, y, ...) returns a train and a test part of
		// each array in turn: X_tr, X_te, y_tr, y_te.
		if q := p.Model.CalleeName(call); q != "sklearn.model_selection.train_test_split" && q != "sklearn.cross_validation.train_test_split" {
			return false
		}
		asg := call.Parent
		if asg.Type != "assignment" || asg.ChildByField("right") != call {
			return false
		}
		args := rewrite.PositionalArgs(call)
		targets := asg.ChildByField("left")
		if !targets.Is("pattern_list", "tuple_pattern") || len(targets.NamedChildren()) != 2*len(args) {
			return false
		}
		notPlain(call) // sklearn indexes the frame: not known to take a cuDF one
		for i, a := range args {
			if a == e {
				followName(targets.NamedChildren()[2*i], values)
				followName(targets.NamedChildren()[2*i+1], values)
			}
		}
		return true
	}
	follow(call, false)
	return ff
}

// consumer records what call does with the frame (or its values) e.
func (ff *frameFlow) consumer(p *Pass, e, call *rewrite.Node, values bool, notPlain func(*rewrite.Node)) {
	m := p.Model
	q := m.CalleeName(call)
	fn := call.ChildByField("function")
	switch {
	case q == "xgboost.DMatrix" || q == "xgboost.QuantileDMatrix" || q == "xgboost.DeviceQuantileDMatrix":
		ff.XGBoost = append(ff.XGBoost, call)
		if values {
			notPlain(call)
		}
		if xgbMatrixOnGPU(p, call) && ff.GPUTraining == "" {
			ff.GPUTraining = `XGBoost training with device="cuda"`
		}
	case fn != nil && fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "fit" || fn.ChildByField("attribute").Text() == "predict"):
		est := xgbEstimatorOf(m, fn.ChildByField("object"))
		if est == nil {
			notPlain(call)
			if ff.Other == "" {
				ff.Other = oneLine(fn.Text())
			}
			return
		}
		ff.XGBoost = append(ff.XGBoost, call)
		if values {
			notPlain(call)
		}
		if xgbEstimatorOnGPU(est) && ff.GPUTraining == "" {
			ff.GPUTraining = `XGBoost training with device="cuda"`
		}
	case q == "len" && !values:
	case values && (q == "torch.tensor" || q == "torch.from_numpy" || q == "torch.as_tensor" || q == "torch.Tensor"):
		notPlain(call)
		if torchEndsOnCUDA(m, call) && ff.GPUTraining == "" {
			ff.GPUTraining = "a CUDA tensor"
		}
	default:
		notPlain(call)
		if strings.HasPrefix(q, "sklearn.") && !strings.HasPrefix(q, "sklearn.metrics.") && !strings.HasSuffix(q, ".train_test_split") && ff.Other == "" && callAttr(call) != "split" {
			ff.Other = q // cross_val_score(model, X, y), a scaler's fit_transform ...
		}
	}
}

// xgbFitCall reports a fit call of an XGBoost estimator.
func xgbFitCall(p *Pass, call *rewrite.Node) bool {
	if call == nil || call.Type != "call" {
		return false
	}
	fn := call.ChildByField("function")
	return fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "fit" && xgbEstimatorOf(p.Model, fn.ChildByField("object")) != nil
}

// torchEndsOnCUDA reports whether the tensor call builds lands on a CUDA
// device: device="cuda", or moved by .cuda() / .to("cuda") after at most a
// few dtype conversions.
func torchEndsOnCUDA(m *rewrite.Model, call *rewrite.Node) bool {
	if d := rewrite.KeywordValue(call, "device"); d != nil {
		return m.DeviceOf(d) == rewrite.DeviceCUDA
	}
	cur := call
	for i := 0; i < 4; i++ {
		fn := cur.Parent
		if fn == nil || fn.Type != "attribute" || fn.Parent.Type != "call" || fn.ChildByField("object") != cur {
			return false
		}
		next := fn.Parent
		if m.MoveKind(next) == rewrite.DeviceCUDA {
			return true
		}
		switch fn.ChildByField("attribute").Text() {
		case "float", "double", "half", "long", "int", "bfloat16", "contiguous":
		default:
			return false
		}
		cur = next
	}
	return false
}

// xgbMatrixOnGPU reports whether the matrix built by call trains with
// xgb.train on the GPU (params with device="cuda" or tree_method="gpu_hist").
func xgbMatrixOnGPU(p *Pass, call *rewrite.Node) bool {
	asg := call.Parent
	if asg.Type != "assignment" || asg.ChildByField("left").Type != "identifier" {
		return false
	}
	name := asg.ChildByField("left")
	for _, tc := range xgbTrainCalls(p) {
		if tc.DTrain == nil || tc.DTrain.Type != "identifier" || !tc.ParamsKnown || tc.Params == nil {
			continue
		}
		if b := p.Model.Binding(tc.DTrain); b != nil && b.Ident == name && xgbParamsOnGPU(tc.Params) {
			return true
		}
	}
	return false
}

// xgbParamsOnGPU reports device="cuda..." / "gpu" or tree_method="gpu_hist".
func xgbParamsOnGPU(g *paramGroup) bool {
	if e := g.get("device"); e != nil {
		if v, ok := rewrite.StringValue(e.Value); ok && (strings.HasPrefix(v, "cuda") || v == "gpu") {
			return true
		}
	}
	if e := g.get("tree_method"); e != nil {
		v, ok := rewrite.StringValue(e.Value)
		return ok && v == "gpu_hist"
	}
	return false
}

// xgbEstimatorOf returns the XGBoost estimator constructor call obj
// evidently is (`XGBClassifier(...)` or a name assigned it once), or nil.
func xgbEstimatorOf(m *rewrite.Model, obj *rewrite.Node) *rewrite.Node {
	if obj == nil {
		return nil
	}
	if obj.Type == "identifier" {
		obj = m.ValueOf(obj)
	}
	if obj == nil || obj.Type != "call" || !isXGBEstimator(m.CalleeName(obj)) {
		return nil
	}
	return obj
}

// xgbEstimatorOnGPU reports an estimator built with device="cuda" (or
// tree_method="gpu_hist").
func xgbEstimatorOnGPU(est *rewrite.Node) bool {
	g := &paramGroup{}
	for _, a := range est.ChildByField("arguments").NamedChildren() {
		if a.Type == "keyword_argument" {
			g.Entries = append(g.Entries, &xgbParam{Key: a.ChildByField("name").Text(), Value: a.ChildByField("value")})
		}
	}
	return xgbParamsOnGPU(g)
}

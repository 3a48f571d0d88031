package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// HistDevice is XGB005.
var HistDevice = &Rule{
	Code:            "XGB005",
	Name:            "xgboost-hist-without-device",
	Title:           `Train hist on the GPU: add device="cuda"`,
	Fix:             rewrite.Unsafe,
	Severity:        rewrite.Information,
	Libraries:       []string{"xgboost"},
	Names:           []string{"train", "cv", "XGBClassifier", "XGBRegressor", "XGBRanker", "XGBRFClassifier", "XGBRFRegressor", "XGBModel"}, // findings are xgboost.train/cv calls or the sklearn wrappers, whose callee spelling ends in one of these
	SkipTestModules: true,
	Check:           checkHistDevice,
}

func init() { Register(HistDevice) }

func checkHistDevice(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) || toyDataset(p) {
		return
	}
	verdict := p.Env.Gate(Need{})
	report := func(at *rewrite.Node, g *paramGroup, edit rewrite.Edit, ok bool) {
		msg := `hist training without device runs on the CPU: add device="cuda"`
		if verdict.Hint {
			msg += " (" + verdict.Assumption + ")"
		} else {
			msg += " (" + verdict.Assumption + " in the profile)"
		}
		var fx *rewrite.Fix
		if ok {
			fx = verdict.Downgrade(Fix(rewrite.Unsafe, `Add device="cuda"`, edit))
		}
		p.Report(at, msg, fx)
	}
	needsDevice := func(g *paramGroup) bool {
		if g.get("device") != nil || g.get("gpu_id") != nil || !treeMethodIsHist(g) {
			return false
		}
		// `if no_cuda: p["tree_method"] = "hist" else: p["tree_method"] =
		// "gpu_hist"`: the hist is the script's chosen CPU path.
		for _, e := range g.Entries {
			if e.Key == "tree_method" && mustString(e.Value) == "gpu_hist" {
				return false
			}
		}
		return true
	}
	var done []*rewrite.Node // params reported: one finding per dict
	for _, tc := range xgbTrainCalls(p) {
		if !tc.ParamsKnown || tc.Params.Container == nil || !needsDevice(tc.Params) || slices.Contains(done, tc.Params.Container) {
			continue
		}
		c := tc.Params.Container
		done = append(done, c)
		if c.Type == "dictionary" {
			e, ok := rewrite.AppendItem(c, rewrite.QuoteLike(firstKey(c), "device")+": "+rewrite.QuoteLike(firstKey(c), "cuda"))
			report(c, tc.Params, e, ok)
		} else {
			e, ok := rewrite.AppendItem(c, `device="cuda"`)
			report(c, tc.Params, e, ok)
		}
	}
	for _, n := range p.File.OfType("call") {
		if !isXGBEstimator(p.Model.CalleeName(n)) || rewrite.HasSplat(n) && !splatsKnown(p, n) || neverUsed(p, n) || paramsSetLater(p, n) || searchedInParallel(p, n) || loadedNotFitted(p, n) {
			continue
		}
		g := &paramGroup{}
		for _, a := range n.ChildByField("arguments").NamedChildren() {
			switch a.Type {
			case "keyword_argument":
				g.Entries = append(g.Entries, &xgbParam{Key: a.ChildByField("name").Text(), Value: a.ChildByField("value"), Item: a, Form: kwargForm})
			case "dictionary_splat":
				// XGBClassifier(**params) with a dict gpuopt reads whole:
				// adding device="cuda" beside it cannot repeat a key.
				entries, _ := p.Model.DictEntries(a.NamedChildren()[0], n)
				for _, e := range entries {
					g.Entries = append(g.Entries, &xgbParam{Key: e.Key, Value: e.Value, Item: a, Form: kwargForm})
				}
			}
		}
		if needsDevice(g) {
			// Every ** splat's keys are known here (splatsKnown above).
			e, ok := rewrite.AppendItemBesideSplats(n.ChildByField("arguments"), `device="cuda"`)
			report(n, g, e, ok)
		}
	}
}

// loadedNotFitted reports an estimator whose name the file only loads a
// saved model into (`clf = XGBClassifier(); clf.load_model(path)`) and
// never fits: nothing is trained, and prediction's device follows the
// data (blind sample S19E's foursquare inference, on its CPU branch).
func loadedNotFitted(p *Pass, est *rewrite.Node) bool {
	a := est.Parent
	if a == nil || a.Type != "assignment" || a.ChildByField("right") != est {
		return false
	}
	target := a.ChildByField("left").Text()
	scope := enclosingFunction(est)
	on := func(method string) bool {
		return slices.ContainsFunc(p.File.MethodCalls(method), func(c *rewrite.Node) bool {
			return enclosingFunction(c) == scope && c.ChildByField("function").ChildByField("object").Text() == target
		})
	}
	return on("load_model") && !on("fit")
}

// paramsSetLater reports an estimator whose parameters a later
// `set_params(...)` call sets with a splat or a device or tree method
// (`self.clf = XGBClassifier()` then `self.clf.set_params(**params)`):
// the device may come there, from code gpuopt does not see (blind sample
// S15A's cross-validation wrapper, whose caller passes gpu_hist).
func paramsSetLater(p *Pass, est *rewrite.Node) bool {
	a := est.Parent
	if a == nil || a.Type != "assignment" || a.ChildByField("right") != est {
		return false
	}
	target := a.ChildByField("left").Text()
	for _, c := range p.File.MethodCalls("set_params") {
		if c.ChildByField("function").ChildByField("object").Text() != target {
			continue
		}
		if rewrite.HasSplat(c) || rewrite.KeywordArg(c, "device") != nil || rewrite.KeywordArg(c, "tree_method") != nil {
			return true
		}
	}
	return false
}

// searchedInParallel reports an estimator handed to a scikit-learn search
// or cross-validation that fits in parallel processes (`GridSearchCV(
// base_model, grid, n_jobs=-1)`): each worker would open its own CUDA
// context on the one GPU, where the CPU search spreads over the cores
// (blind sample S16C's XGBoost grid over 9,216 settings).
func searchedInParallel(p *Pass, est *rewrite.Node) bool {
	name := ""
	if a := est.Parent; a != nil && a.Type == "assignment" && a.ChildByField("right") == est && a.ChildByField("left").Type == "identifier" {
		name = a.ChildByField("left").Text()
	}
	for _, c := range parallelSearches(p) {
		arg := rewrite.Arg(c, 0, "estimator")
		if arg == nil || arg != est && (name == "" || arg.Type != "identifier" || arg.Text() != name) {
			continue
		}
		jobs := rewrite.KeywordArg(c, "n_jobs")
		if jobs == nil {
			continue
		}
		if v := jobs.ChildByField("value"); v != nil && v.Text() != "1" && v.Text() != "None" {
			return true
		}
	}
	return false
}

// parallelSearches returns the file's scikit-learn (or scikit-optimize)
// searches and cross-validations, computed once per file: a file that
// spells none of them skips the walk.
func parallelSearches(p *Pass) []*rewrite.Node {
	return p.Memo("xgb.parallelSearches", func() any {
		if !p.File.SpellsMatching(func(s string) bool {
			return strings.HasSuffix(s, "SearchCV") || s == "cross_val_score" || s == "cross_validate"
		}) {
			return []*rewrite.Node(nil)
		}
		var out []*rewrite.Node
		for _, c := range p.File.OfType("call") {
			q := p.Model.CalleeName(c)
			if !strings.HasPrefix(q, "sklearn.") && !strings.HasPrefix(q, "skopt.") {
				continue
			}
			if strings.HasSuffix(q, "SearchCV") || strings.HasSuffix(q, ".cross_val_score") || strings.HasSuffix(q, ".cross_validate") {
				out = append(out, c)
			}
		}
		return out
	}).([]*rewrite.Node)
}

func mustString(n *rewrite.Node) string {
	s, _ := rewrite.StringValue(n)
	return s
}

// firstKey returns a dictionary's first key, the model for quoting.
func firstKey(dict *rewrite.Node) *rewrite.Node {
	for _, c := range dict.NamedChildren() {
		if c.Type == "pair" {
			return c.ChildByField("key")
		}
	}
	return nil
}

// neverUsed reports a call whose value is bound to a name nothing reads
// (`xgb_model = XGBRegressor(**params)` whose only use was commented
// out): it trains nothing.
func neverUsed(p *Pass, call *rewrite.Node) bool {
	left := assignedIdentifier(call)
	if left == nil {
		return false
	}
	bs := p.Model.Bindings(left)
	if len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		if len(b.Uses) > 0 {
			return false
		}
	}
	return true
}

// toyDatasets are scikit-learn's bundled data sets: 150 to 1,797 rows
// (iris, wine, breast cancer, diabetes, digits, Boston, Linnerud). A GPU
// does not train a booster on them faster than the CPU does: the data
// transfer and kernel launches are most of the work (blind sample CC:
// 42 findings on such study scripts, every one judged a false alarm).
var toyDatasets = map[string]bool{
	"sklearn.datasets.load_iris": true, "sklearn.datasets.load_wine": true, "sklearn.datasets.load_breast_cancer": true,
	"sklearn.datasets.load_diabetes": true, "sklearn.datasets.load_digits": true, "sklearn.datasets.load_boston": true,
	"sklearn.datasets.load_linnerud": true,
}

// toyDataset reports a file that trains on one of scikit-learn's bundled
// toy data sets.
func toyDataset(p *Pass) bool {
	if !p.File.Spells("load_iris") && !p.File.Spells("load_wine") && !p.File.Spells("load_breast_cancer") &&
		!p.File.Spells("load_diabetes") && !p.File.Spells("load_digits") && !p.File.Spells("load_boston") && !p.File.Spells("load_linnerud") {
		return false
	}
	for _, c := range p.File.OfType("call") {
		if toyDatasets[p.Model.CalleeName(c)] {
			return true
		}
	}
	return false
}

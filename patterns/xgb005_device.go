package patterns

import "github.com/gpuopt/gpuopt/rewrite"

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
	Doc: `## What it does
Finds XGBoost training with the hist tree method (set, or unset: the default
since XGBoost 2.0) that never names a ` + "`device`" + `: the parameters of
` + "`xgb.train`/`xgb.cv`" + ` and the scikit-learn estimators.

## Why is this bad?
Without ` + "`device`" + ` XGBoost trains on the CPU even when a GPU is
present. On a GPU, hist training is typically several times faster for
medium and large data.

## Example
` + "```python" + `
model = xgb.XGBClassifier(n_estimators=500, tree_method="hist")
` + "```" + `

## Use instead
` + "```python" + `
model = xgb.XGBClassifier(n_estimators=500, tree_method="hist", device="cuda")
` + "```" + `

## Fix safety
Unsafe: GPU and CPU hist differ in floating-point summation order, so the
trees (and predictions) can differ slightly, and the data must fit in device
memory. Fires only when the profile has a GPU (live via NVML, or a configured
target); with no GPU known it is a hint that says so. Silent when parameters
come from somewhere gpuopt cannot see (` + "`**params`" + `, a dict built elsewhere),
and in test modules (` + "`test_*.py`" + `, ` + "`*_test.py`" + `, ` + "`conftest.py`" + `, files
importing pytest or unittest): a CPU test moved to the GPU no longer tests
what it was written for.

## Measured gain
Not measured by gpuopt yet (XGBoost is not installed on the project's GPU
machine); the gain depends on data size: small data can be slower on the GPU.
`,
}

func init() { Register(HistDevice) }

func checkHistDevice(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) {
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
		return g.get("device") == nil && g.get("gpu_id") == nil && treeMethodIsHist(g) &&
			(g.get("tree_method") == nil || mustString(g.get("tree_method").Value) != "gpu_hist")
	}
	for _, tc := range xgbTrainCalls(p) {
		if !tc.ParamsKnown || tc.Params.Container == nil || !needsDevice(tc.Params) {
			continue
		}
		c := tc.Params.Container
		if c.Type == "dictionary" {
			e, ok := rewrite.AppendItem(c, rewrite.QuoteLike(firstKey(c), "device")+": "+rewrite.QuoteLike(firstKey(c), "cuda"))
			report(c, tc.Params, e, ok)
		} else {
			e, ok := rewrite.AppendItem(c, `device="cuda"`)
			report(c, tc.Params, e, ok)
		}
	}
	for _, n := range p.File.OfType("call") {
		if !isXGBEstimator(p.Model.CalleeName(n)) || rewrite.HasSplat(n) {
			continue
		}
		g := &paramGroup{}
		for _, a := range n.ChildByField("arguments").NamedChildren() {
			if a.Type == "keyword_argument" {
				g.Entries = append(g.Entries, &xgbParam{Key: a.ChildByField("name").Text(), Value: a.ChildByField("value"), Item: a, Form: kwargForm})
			}
		}
		if needsDevice(g) {
			e, ok := rewrite.AppendItem(n.ChildByField("arguments"), `device="cuda"`)
			report(n, g, e, ok)
		}
	}
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

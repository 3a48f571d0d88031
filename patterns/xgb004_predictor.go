package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// Predictor is XGB004.
var Predictor = &Rule{
	Code:      "XGB004",
	Name:      "xgboost-predictor",
	Title:     `Remove predictor="gpu_predictor"/"cpu_predictor"`,
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"xgboost"},
	Check:     checkPredictor,
	Doc: `## What it does
Finds the ` + "`predictor`" + ` parameter set to ` + "`\"gpu_predictor\"`" + ` or
` + "`\"cpu_predictor\"`" + ` in XGBoost parameters.

## Why is this bad?
XGBoost 2.0 removed the parameter: prediction runs on the booster's
` + "`device`" + `. Keeping it only produces a warning, and guides that still set
` + "`gpu_predictor`" + ` suggest it does something.

## Example
` + "```python" + `
params = {"tree_method": "hist", "device": "cuda", "predictor": "gpu_predictor"}
` + "```" + `

## Use instead
` + "```python" + `
params = {"tree_method": "hist", "device": "cuda"}
` + "```" + `

## Fix safety
Safe on XGBoost >= 2.0, where the parameter is ignored: removing it changes
nothing but the warning. Silent when XGBoost < 2.0 is pinned.

## Measured gain
None: a clean-up. Prediction speed follows ` + "`device`" + `.
`,
}

func init() { Register(Predictor) }

func checkPredictor(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) {
		return
	}
	for _, g := range xgbParamGroups(p) {
		e := g.get("predictor")
		if e == nil {
			continue
		}
		v, ok := rewrite.StringValue(e.Value)
		if !ok || (v != "gpu_predictor" && v != "cpu_predictor") {
			continue
		}
		p.Report(e.Item, `predictor="`+v+`" was removed in XGBoost 2.0; prediction follows device`,
			Fix(rewrite.Safe, "Remove the predictor parameter", deleteEntry(e)))
	}
}

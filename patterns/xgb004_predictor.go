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

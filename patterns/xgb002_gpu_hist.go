package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// GPUHist is XGB002.
var GPUHist = &Rule{
	Code:      "XGB002",
	Name:      "xgboost-gpu-hist",
	Title:     `Replace tree_method="gpu_hist" with tree_method="hist", device="cuda"`,
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"xgboost"},
	Check:     checkGPUHist,
}

func init() { Register(GPUHist) }

func checkGPUHist(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) {
		return
	}
	for _, g := range xgbParamGroups(p) {
		e := g.get("tree_method")
		if e == nil {
			continue
		}
		if v, ok := rewrite.StringValue(e.Value); !ok || v != "gpu_hist" {
			continue
		}
		edits := []rewrite.Edit{e.replaceValue("hist")}
		msg := `tree_method="gpu_hist" is deprecated since XGBoost 2.0: use tree_method="hist" with device="cuda"`
		switch {
		case g.get("device") != nil:
		case g.get("gpu_id") != nil:
			if id := g.get("gpu_id").Value; id == nil || id.Type != "integer" {
				// gpu_id=-1 or a computed id: XGBoost 2 may map it to the
				// CPU, where gpu_hist trained on the GPU. Leave it to the user.
				p.Report(e.Value, msg+" (set device yourself: gpu_id here is not a plain GPU number)", nil)
				continue
			}
		case e.Form == setParamForm:
			// set_param("tree_method", "gpu_hist") -> set_param({...}) with both keys.
			args := e.Item.ChildByField("arguments")
			q := func(s string) string { return rewrite.QuoteLike(e.KeyNode, s) }
			edits = []rewrite.Edit{{Start: args.Start, End: args.End,
				New: "({" + q("tree_method") + ": " + q("hist") + ", " + q("device") + ": " + q("cuda") + "})"}}
		default:
			edits = append(edits, e.addAfter("device", "cuda"))
		}
		p.Report(e.Value, msg, Fix(rewrite.Safe, `Use tree_method="hist", device="cuda"`, edits...))
	}
}

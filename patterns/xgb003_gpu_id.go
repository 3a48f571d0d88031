package patterns

import (
	"strconv"

	"github.com/gpuopt/gpuopt/rewrite"
)

// GPUID is XGB003.
var GPUID = &Rule{
	Code:      "XGB003",
	Name:      "xgboost-gpu-id",
	Title:     `Replace gpu_id=N with device="cuda:N"`,
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"xgboost"},
	Check:     checkGPUID,
}

func init() { Register(GPUID) }

func checkGPUID(p *Pass) {
	if !p.Env.Versions.XGBoost.AtLeast(2, 0) {
		return
	}
	for _, g := range xgbParamGroups(p) {
		e := g.get("gpu_id")
		if e == nil || (e.Form == dictForm && !isXGBGroup(g, "gpu_id")) {
			continue
		}
		msg := "gpu_id is deprecated since XGBoost 2.0: select the GPU with device=\"cuda:N\""
		var fix *rewrite.Fix
		if g.get("device") != nil && e.Form != setParamForm {
			fix = Fix(rewrite.Safe, "Remove gpu_id (device is already set)", deleteEntry(e))
		} else if n, err := strconv.Atoi(e.Value.Text()); err == nil && e.Value.Type == "integer" && e.Form != setParamForm && !(e.Form == kwargForm && passesKwargs(e.Item)) {
			dev := "cuda:" + strconv.Itoa(n)
			var edit rewrite.Edit
			switch e.Form {
			case kwargForm:
				edit = rewrite.Edit{Start: e.Item.Start, End: e.Item.End, New: "device=" + rewrite.QuoteLike(siblingString(e.Item), dev)}
			case dictForm:
				edit = rewrite.Edit{Start: e.Item.Start, End: e.Item.End, New: e.render("device", dev)}
			case subscriptForm:
				edit = rewrite.Edit{Start: e.KeyNode.Start, End: e.Value.End,
					New: rewrite.QuoteLike(e.KeyNode, "device") + e.File().Src.Text(e.KeyNode.End, e.Value.Start) + rewrite.QuoteLike(e.KeyNode, dev)}
			}
			fix = Fix(rewrite.Safe, "Use device=\""+dev+"\"", edit)
		}
		p.Report(e.Item, msg, fix)
	}
}

// passesKwargs reports whether the call a keyword argument belongs to
// also passes **kwargs, which may name the keyword a fix would add (a
// call given one keyword twice raises TypeError).
func passesKwargs(kw *rewrite.Node) bool {
	if kw.Parent == nil {
		return true // no argument list to see: assume the worst
	}
	for _, c := range kw.Parent.Children {
		if c.Type == "dictionary_splat" {
			return true
		}
	}
	return false
}

// siblingString returns the first string value among the keyword arguments
// next to item, so a new string follows the call's quote style; nil if none.
func siblingString(item *rewrite.Node) *rewrite.Node {
	if item.Parent == nil {
		return nil
	}
	for _, c := range item.Parent.NamedChildren() {
		if c.Type == "keyword_argument" {
			if v := c.ChildByField("value"); v != nil && v.Type == "string" {
				return v
			}
		}
	}
	return nil
}

// deleteEntry removes a parameter entry in any form.
func deleteEntry(e *xgbParam) rewrite.Edit {
	switch e.Form {
	case subscriptForm, setParamForm:
		src := e.File().Src
		line := src.LineOf(e.Item.Start)
		start, end := src.LineStart(line), src.LineStart(line+1)
		return rewrite.KeepTrailingComment(e.Item, rewrite.Edit{Start: start, End: end})
	default:
		return rewrite.DeleteArgEdit(e.Item)
	}
}

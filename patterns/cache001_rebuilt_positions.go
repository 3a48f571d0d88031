package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// RebuiltPositions is CACHE001.
var RebuiltPositions = &Rule{
	Code:      "CACHE001",
	Name:      "positions-mask-rebuilt-in-forward",
	Title:     "Cache position indices and causal masks instead of rebuilding them in forward",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"arange", "triu", "tril"}, // findings are torch.arange / torch.triu / torch.tril (or <factory>.triu/.tril) calls
	Check:     checkRebuiltPositions,
}

func init() { Register(RebuiltPositions) }

var maskFactories = map[string]bool{"torch.ones": true, "torch.full": true, "torch.ones_like": true, "torch.empty": true}

func checkRebuiltPositions(p *Pass) {
	for _, cls := range p.File.OfType("class_definition") {
		if !p.Model.IsModuleClass(cls.ChildByField("name")) {
			continue
		}
		fwd := methodNamed(cls, "forward")
		if fwd == nil {
			continue
		}
		fwd.ChildByField("body").Walk(func(n *rewrite.Node) bool {
			if n.Is("function_definition", "class_definition", "lambda", "if_statement", "conditional_expression") {
				return false
			}
			if n.Type != "call" || cachedOnSelf(n) {
				return true
			}
			q := p.Model.CalleeName(n)
			fn := n.ChildByField("function")
			switch {
			case q == "torch.arange":
				p.Report(n, "torch.arange is rebuilt on every forward: register it once as a buffer for the maximum length and slice it", nil)
				return false
			case q == "torch.triu" || q == "torch.tril":
				if a := rewrite.Arg(n, 0, "input"); a != nil && maskFactories[p.Model.CalleeName(a)] {
					p.Report(n, "this causal mask is rebuilt on every forward: register it once as a buffer and slice it, or use scaled_dot_product_attention(is_causal=True)", nil)
					return false
				}
			case fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "triu" || fn.ChildByField("attribute").Text() == "tril"):
				if maskFactories[p.Model.CalleeName(fn.ChildByField("object"))] {
					p.Report(n, "this causal mask is rebuilt on every forward: register it once as a buffer and slice it, or use scaled_dot_product_attention(is_causal=True)", nil)
					return false
				}
			}
			return true
		})
	}
}

// cachedOnSelf reports a call whose value is assigned to self.<attr>.
func cachedOnSelf(call *rewrite.Node) bool {
	asg := call.Ancestor("assignment")
	if asg == nil || !asg.ChildByField("right").Contains(call) {
		return false
	}
	l := asg.ChildByField("left")
	return l.Type == "attribute" || l.Type == "subscript"
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// RebuiltPositions is CACHE001.
var RebuiltPositions = &Rule{
	Code:      "CACHE001",
	Name:      "positions-mask-rebuilt-in-forward",
	Title:     "Cache causal masks instead of rebuilding them on the host in forward",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"triu", "tril"}, // findings are torch.triu / torch.tril (or <factory>.triu/.tril) calls
	Check:     checkRebuiltPositions,
}

func init() { Register(RebuiltPositions) }

var maskFactories = map[string]bool{"torch.ones": true, "torch.full": true, "torch.ones_like": true, "torch.empty": true}

// checkRebuiltPositions reports causal masks built on the host in an
// nn.Module's forward. On an H100 (corpus/gpu/cache001_arange.py,
// .notes/cache001-h100.txt) a host-built mask copied to the GPU every
// forward cost GPT-style training steps 1.05-1.34×, while a mask built
// on the device (`torch.ones(T, T, device=x.device)`) and positions from
// torch.arange, on the device or the host, cost 1.00-1.02×: those are
// not reported (blind samples judged 5 of 6 such findings false).
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
			// (Under a CUDA default tensor type, set here or in a project
			// module, the mask is built on the device: 1.00-1.02×
			// measured, nothing to report; blind sample S38O's SAKT.)
			if factory := maskFactory(p, n); factory != nil && hostBuilt(factory) && !projectCUDADefault(p) {
				p.Report(n, "this causal mask is built on the host and copied to the GPU on every forward (1.05-1.34× per training step of GPT-style models on an H100): register it once as a buffer and slice it, or use scaled_dot_product_attention(is_causal=True)", nil)
				return false
			}
			return true
		})
	}
}

// maskFactory returns the fresh tensor a causal mask call masks
// (`torch.triu(torch.ones(T, T), 1)`, `torch.ones(T, T).tril()`), or nil
// when call builds no mask.
func maskFactory(p *Pass, call *rewrite.Node) *rewrite.Node {
	fn := call.ChildByField("function")
	var arg *rewrite.Node
	switch q := p.Model.CalleeName(call); {
	case q == "torch.triu" || q == "torch.tril":
		arg = rewrite.Arg(call, 0, "input")
	case fn.Type == "attribute" && (fn.ChildByField("attribute").Text() == "triu" || fn.ChildByField("attribute").Text() == "tril"):
		arg = fn.ChildByField("object")
	}
	if arg == nil || arg.Type != "call" || !maskFactories[p.Model.CalleeName(arg)] {
		return nil
	}
	return arg
}

// hostBuilt reports a factory call that builds its tensor on the host:
// no device= argument (torch.ones_like follows its input, which in a
// forward is already where the model runs).
func hostBuilt(factory *rewrite.Node) bool {
	if rewrite.KeywordValue(factory, "device") != nil {
		return false
	}
	fn := factory.ChildByField("function")
	return fn == nil || !strings.HasSuffix(fn.Text(), "_like")
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

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// FusedOptimizer is OPT001.
var FusedOptimizer = &Rule{
	Code:      "OPT001",
	Name:      "fused-optimizer",
	Title:     "Pass fused=True to Adam/AdamW/SGD over CUDA parameters",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"Adam", "AdamW", "SGD"}, // every spelling of the optimizers it fixes ends in one
	Check:     checkFusedOptimizer,
}

func init() { Register(FusedOptimizer) }

func checkFusedOptimizer(p *Pass) {
	torch := p.Env.Versions.Torch
	if !torch.AtLeast(2, 0) {
		return
	}
	if hasKeywordTrue(p, "sparse") {
		return // sparse gradients (nn.Embedding(sparse=True)) have no fused kernel
	}
	if mentionsComplex(p) {
		return // fused=True rejects complex parameters at the first step
	}
	optimizers := []string{"torch.optim.Adam", "torch.optim.AdamW", "torch.optim.adam.Adam", "torch.optim.adamw.AdamW"}
	if torch.AtLeast(2, 3) { // fused SGD
		optimizers = append(optimizers, "torch.optim.SGD", "torch.optim.sgd.SGD")
	}
	for _, call := range p.Model.CallsTo(optimizers...) {
		if rewrite.HasSplat(call) {
			continue
		}
		skip := false
		for _, kw := range []string{"fused", "foreach", "differentiable", "capturable"} {
			if rewrite.KeywordArg(call, kw) != nil {
				skip = true
			}
		}
		if skip {
			continue
		}
		root := paramsModel(p, rewrite.Arg(call, 0, "params"), 0)
		if root == nil {
			continue
		}
		where := moduleWhere(p, root, call)
		if !where.CUDA {
			continue
		}
		e, ok := rewrite.AppendItem(call.ChildByField("arguments"), "fused=True")
		if !ok {
			continue
		}
		q := p.Model.CalleeName(call)
		name := q[strings.LastIndex(q, ".")+1:]
		// Before 2.4 the fused path accepts only CUDA parameters: one created
		// after the model was moved (a scalar on the CPU) would fail there.
		// From 2.4 it also steps CPU parameters (and from 2.5 MPS ones), so a
		// device that falls back to the CPU without a GPU keeps working.
		app := rewrite.Safe
		if !torch.AtLeast(2, 4) {
			app = rewrite.Unsafe
			if where.Fallback {
				app = rewrite.Hint // fused=True raises on the CPU fallback
			}
		} else if where.Fallback && !torch.AtLeast(2, 5) && mentionsMPS(p) {
			app = rewrite.Unsafe // the MPS fallback has no fused SGD before 2.5
		}
		msg := name + " over CUDA parameters without fused=True: the fused kernel does the whole update in one pass (2.0–2.15× faster than the default foreach step on an H100)"
		if where.Assumption != "" {
			msg += " (" + where.Assumption + ")"
		}
		p.Report(call, msg, Fix(app, "Pass fused=True", e))
	}
}

// mentionsMPS reports an "mps" device string in the file.
func mentionsMPS(p *Pass) bool {
	for _, n := range p.File.OfType("string") {
		if s, ok := rewrite.StringValue(n); ok && strings.HasPrefix(s, "mps") {
			return true
		}
	}
	return p.File.Spells("mps")
}

// complexNames are the torch names that make complex tensors: a model
// with complex parameters (spectral layers) fails under fused=True.
var complexNames = []string{"torch.cfloat", "torch.cdouble", "torch.chalf", "torch.complex32", "torch.complex64",
	"torch.complex128", "torch.complex", "torch.view_as_complex", "torch.polar"}

// mentionsComplex reports a file that may create complex tensors.
func mentionsComplex(p *Pass) bool {
	return mentionsQualified(p, complexNames...)
}

// paramsModel returns the model whose parameters an optimizer's params
// argument holds: `model.parameters()`, a name assigned one, a list or sum
// of them (`list(dec.parameters()) + list(enc.fc.parameters())`: the first
// model), or the parameter groups a helper builds from a model
// (`add_weight_decay(model, wd)`). Nil when not evident.
func paramsModel(p *Pass, params *rewrite.Node, depth int) *rewrite.Node {
	if params == nil || depth > 3 {
		return nil
	}
	switch params.Type {
	case "identifier":
		return paramsModel(p, p.Model.ValueOf(params), depth+1)
	case "parenthesized_expression", "binary_operator", "list", "tuple":
		for _, c := range params.NamedChildren() {
			if r := paramsModel(p, c, depth+1); r != nil {
				return r
			}
		}
	case "call":
		if callAttr(params) == "parameters" && len(params.ChildByField("arguments").NamedChildren()) == 0 {
			return rewrite.RootIdent(params.ChildByField("function").ChildByField("object"))
		}
		switch q := p.Model.CalleeName(params); {
		case q == "list" || q == "itertools.chain":
			for _, a := range rewrite.PositionalArgs(params) {
				if r := paramsModel(p, a, depth+1); r != nil {
					return r
				}
			}
		default:
			// A helper building parameter groups from a model.
			if pos := rewrite.PositionalArgs(params); len(pos) > 0 && pos[0].Type == "identifier" && p.Model.IsModule(pos[0]) {
				return pos[0]
			}
		}
	}
	return nil
}

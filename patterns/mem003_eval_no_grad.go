package patterns

import (
	"regexp"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// EvalWithoutNoGrad is MEM003.
var EvalWithoutNoGrad = &Rule{
	Code:      "MEM003",
	Name:      "eval-loop-without-no-grad",
	Title:     "Run evaluation loops under torch.inference_mode()",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Check:     checkEvalWithoutNoGrad,
}

func init() { Register(EvalWithoutNoGrad) }

func checkEvalWithoutNoGrad(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(0, 4) {
		return // torch.no_grad arrived in 0.4; before it, Variable(volatile=True)
	}
	if !p.Model.UsesCUDA() && !p.Model.ProjectSpells("cuda") {
		// Nothing in the file or its project reaches a GPU (blind sample
		// S32C's stock LSTM): the graph it keeps costs host memory, and
		// DEV001 reports a script that trains on the CPU. A module that
		// evaluates a model its project moves to CUDA keeps the finding.
		return
	}
	ctx := "torch.inference_mode"
	if !p.Env.Versions.Torch.AtLeast(1, 9) {
		ctx = "torch.no_grad"
	}
	reported := map[*rewrite.Node]bool{}
	for _, loop := range p.File.OfType("for_statement") {
		if isAsync(loop) || p.Model.Loop(loop).Trains() {
			continue
		}
		outer := false
		for _, l := range p.Model.EnclosingLoops(loop) {
			if reported[l] {
				outer = true
			}
		}
		if outer {
			continue
		}
		recv, why := p.Model.EvalModeBefore(loop), ""
		if recv == nil {
			recv = validationForward(p, loop)
			why = " (gpuopt read it as one from its loader's name: " + recv.Text() + ".eval() does not precede it, so dropout and batch norm run as in training too)"
		}
		if recv == nil || !callsReceiver(p, loop, recv.Text()) || touchesGrad(p, loop) || p.Model.InGradContext(loop) {
			continue
		}
		if parameterless(p, recv) {
			// A feature extractor with buffers only (a mel spectrogram
			// module, blind sample S29F's MelGAN): over a loader's
			// tensors, autograd records nothing.
			continue
		}
		reported[loop] = true
		ctx := ctx
		if ctx == "torch.inference_mode" && updatedInPlaceAfter(p, loop) {
			// `avg_loss += criterion(...)` in the loop, `avg_loss /= n`
			// after it: an in-place update of an inference tensor outside
			// inference mode raises (blind sample S17J's LeNet course
			// script); no_grad's tensors are plain ones.
			ctx = "torch.no_grad"
		}
		var fix *rewrite.Fix
		if name, ok := p.Model.LocalName(loop, ctx); ok {
			if e, ok := rewrite.WrapStatementEdit(loop, "with "+name+"():"); ok {
				fix = Fix(rewrite.Unsafe, "Wrap the loop in "+name+"()", e)
			}
		}
		src := p.File.Src
		msg := "evaluation loop after " + recv.Text() + ".eval() runs with autograd on: every forward records a graph and keeps its activations; wrap it in " + ctx + "()"
		if why != "" {
			msg = "evaluation loop runs " + recv.Text() + " with autograd on: every forward records a graph and keeps its activations; wrap it in " + ctx + "()" + why
		}
		p.ReportRange(loop.Start, src.LineEnd(src.LineOf(loop.Start)), msg, fix)
	}
}

// validationForward returns the model a loop over a validation or test
// loader calls when no `.eval()` precedes it (blind sample S25F's AOD-Net,
// whose validation pass after each epoch saved images with autograd on):
// the loop iterates a name that says so (`val_loader`, `test_loader`,
// `loaders["valid"]`), and the same function trains that model in a loop
// of its own (`dehaze_net(img_haze)` before `loss.backward()`). nil
// otherwise.
func validationForward(p *Pass, loop *rewrite.Node) *rewrite.Node {
	if !evaluationLoader(loopIterable(p.Model, loop)) {
		return nil
	}
	def := loop.Ancestor("function_definition")
	if def == nil {
		return nil
	}
	trained := map[string]bool{}
	for _, l := range p.File.OfTypeIn(def, "for_statement") {
		if l == loop || !p.Model.Loop(l).Trains() || l.Ancestor("function_definition") != def {
			continue
		}
		walkLoopBody(p.Model, l, func(n *rewrite.Node) {
			if n.Type == "call" && p.Model.IsModule(n.ChildByField("function")) {
				trained[n.ChildByField("function").Text()] = true
			}
		})
	}
	var recv *rewrite.Node
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if fn := n.ChildByField("function"); recv == nil && n.Type == "call" && fn.Is("identifier", "attribute") && trained[fn.Text()] {
			recv = fn
		}
	})
	return recv
}

// evaluationLoader reports a loop iterable named as a validation or test
// loader: `val_loader`, `self.test_dataloader`, `valid_dl`, `loader_val`,
// `dataloaders["val"]` (not `range(test_sample_num)`).
func evaluationLoader(it *rewrite.Node) bool {
	switch {
	case it == nil:
		return false
	case it.Type == "subscript":
		key := it.ChildByField("subscript")
		return key != nil && key.Type == "string" && evaluationSplit.MatchString(strings.Trim(key.Text(), `"'`))
	case it.Type == "attribute":
		return evaluationLoaderName.MatchString(it.ChildByField("attribute").Text())
	case it.Type == "identifier":
		return evaluationLoaderName.MatchString(it.Text())
	}
	return false
}

var (
	evaluationSplit      = regexp.MustCompile(`(?i)^(val|valid|validation|test|testing|eval|evaluation|dev)$`)
	evaluationLoaderName = regexp.MustCompile(`(?i)^((val|valid|validation|test|testing|eval|evaluation|dev)_?(loader|dataloader|dl|data|set|dataset|iter|batches|generator)s?|(loader|dataloader|dl)_?(val|valid|test|eval))$`)
)

// updatedInPlaceAfter reports a name the loop assigns that code after
// the loop updates in place (`x /= n`, `x.add_(...)`), or hands to
// autograd (`.backward()`, `.requires_grad_()`): tensors made under
// inference_mode refuse both outside it.
func updatedInPlaceAfter(p *Pass, loop *rewrite.Node) bool {
	names := map[string]bool{}
	for _, t := range []string{"assignment", "augmented_assignment"} {
		for _, a := range p.File.OfTypeIn(loop, t) {
			if l := a.ChildByField("left"); l != nil && l.Type == "identifier" {
				names[l.Text()] = true
			}
		}
	}
	scope := p.Model.ScopeOf(loop)
	for name := range names {
		for _, r := range p.Model.Reads(scope, name, p.File.Root) {
			if r.Start < loop.End {
				continue
			}
			if a := r.Parent; a != nil && a.Type == "augmented_assignment" && a.ChildByField("left") == r {
				return true
			}
			if at := r.Parent; at != nil && at.Type == "attribute" && at.ChildByField("object") == r && at.Parent != nil && at.Parent.Type == "call" {
				m := at.ChildByField("attribute").Text()
				if strings.HasSuffix(m, "_") && !strings.HasPrefix(m, "_") || m == "backward" {
					return true
				}
			}
		}
	}
	return false
}

func isAsync(loop *rewrite.Node) bool {
	return len(loop.Children) > 0 && loop.Children[0].Type == "async"
}

// callsReceiver reports a call `recv(...)` in the loop body that is not
// already under no_grad / inference_mode inside the loop.
func callsReceiver(p *Pass, loop *rewrite.Node, recv string) bool {
	found := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if n.Type == "call" && n.ChildByField("function").Text() == recv && !p.Model.InGradContext(n) {
			found = true
		}
	})
	return found
}

// touchesGrad reports anything gradient-related in the loop or in the
// same-file functions it calls: names containing "grad", backward, yield.
func touchesGrad(p *Pass, loop *rewrite.Node) bool {
	found := false
	var scan func(n *rewrite.Node, depth int)
	scan = func(root *rewrite.Node, depth int) {
		root.Walk(func(n *rewrite.Node) bool {
			if found {
				return false
			}
			switch n.Type {
			case "identifier":
				t := strings.ToLower(n.Text())
				if kw := n.Parent; kw != nil && kw.Type == "keyword_argument" && kw.ChildByField("name") == n && t == "requires_grad" {
					if v := kw.ChildByField("value"); v != nil && v.Type == "false" {
						return false // `Variable(x, requires_grad=False)`: asks for no gradient
					}
				}
				if strings.Contains(t, "grad") || t == "backward" {
					found = true
				}
			case "yield", "await":
				found = true
			case "call":
				if def := p.Model.FunctionDef(n); def != nil && depth < 2 {
					scan(def, depth+1)
				}
			}
			return !found
		})
	}
	scan(loop, 0)
	return found
}

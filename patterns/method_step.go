package patterns

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// methodStep is a training step that is a method of a class whose training
// another module drives: the image-translation layout (pix2pix, CycleGAN
// and the many projects that copy them, blind sample S34AT), where
// train.py runs `for data in dataset: model.set_input(data);
// model.optimize_parameters()` and the model class's optimize_parameters
// calls self.forward(), self.backward_D() (which calls .backward()) and
// the optimizers' steps.
type methodStep struct {
	def         *rewrite.Node // the step method (optimize_parameters)
	anchor      *rewrite.Node // its statement that reaches the backward call
	caller      *rewrite.Node // a call of the method in a loop of another module
	callerModel *rewrite.Model
}

// commonMethodNames are method names that library objects answer too
// (nn.Module.train(), an optimizer's step()): a call of one in another
// module says nothing of the project's class.
var commonMethodNames = map[string]bool{
	"train": true, "eval": true, "step": true, "forward": true, "backward": true, "zero_grad": true,
	"update": true, "run": true, "fit": true, "__call__": true, "to": true, "cuda": true, "cpu": true,
}

// findMethodStep returns the method step that reaches the backward call:
// the method holding it, or the method of its class that calls that one
// (two levels up, each through its only call site in the class, outside any
// loop), that some other module of the project calls in a loop that no
// autocast region wraps. ok is false for any other backward.
func findMethodStep(p *Pass, backward *rewrite.Node) (methodStep, bool) {
	def := enclosingFunction(backward)
	anchor := rewrite.Statement(backward)
	if def == nil {
		return methodStep{}, false
	}
	cls := enclosingClass(def)
	if cls == nil || isModuleClass(p.Model, cls) {
		return methodStep{}, false // a network's own method: the forward's business
	}
	for depth := 0; depth < 3; depth++ {
		name := def.ChildByField("name").Text()
		if commonMethodNames[name] || strings.HasPrefix(name, "__") {
			return methodStep{}, false
		}
		foreign, _ := p.Model.ForeignMethodCalls(name)
		for _, fc := range foreign {
			if loops := fc.Model.EnclosingLoops(fc.Call); len(loops) > 0 && everyIteration(fc.Call, loops[0]) && !underAutocast(fc.Call) {
				return methodStep{def: def, anchor: anchor, caller: fc.Call, callerModel: fc.Model}, true
			}
		}
		sites := p.Model.CallSites(def)
		if len(sites) != 1 || len(p.Model.EnclosingLoops(sites[0])) > 0 {
			return methodStep{}, false
		}
		up := enclosingFunction(sites[0])
		if up == nil || enclosingClass(up) != cls {
			return methodStep{}, false
		}
		def, anchor = up, rewrite.Statement(sites[0])
	}
	return methodStep{}, false
}

// everyIteration reports a call that runs on every iteration of loop: no
// branch between them (`if i == 0: model.data_dependent_initialize(data)`
// runs once).
func everyIteration(call, loop *rewrite.Node) bool {
	for n := call.Parent; n != nil && n != loop; n = n.Parent {
		switch n.Type {
		case "if_statement", "else_clause", "elif_clause", "except_clause", "conditional_expression", "match_statement", "boolean_operator":
			return false
		}
	}
	return true
}

// underAutocast reports a call inside a `with` statement that names
// autocast (`with torch.autocast("cuda"): model.optimize_parameters()`).
func underAutocast(call *rewrite.Node) bool {
	for n := call.Parent; n != nil; n = n.Parent {
		if n.Type == "with_statement" {
			for _, c := range n.Children {
				if c.Type == "with_clause" && strings.Contains(c.Text(), "autocast") {
					return true
				}
			}
		}
		if rewrite.IsScopeNode(n) {
			return false
		}
	}
	return false
}

// where says where the step's caller is, for messages: "train.py:17".
func (s methodStep) where() string {
	return filepath.Base(s.callerModel.File.Src.Path) + ":" + strconv.Itoa(s.callerModel.File.Src.LineOf(s.caller.Start)+1)
}

// soleCall returns the call an expression statement consists of
// (`self.backward_G()`), nil for any other statement.
func soleCall(stmt *rewrite.Node) *rewrite.Node {
	if stmt == nil || stmt.Type != "expression_statement" {
		return nil
	}
	if c := stmt.NamedChildren(); len(c) == 1 && c[0].Type == "call" {
		return c[0]
	}
	return nil
}

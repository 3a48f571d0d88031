package patterns

import (
	"bytes"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// GradientCheckpointing is MEM001.
var GradientCheckpointing = &Rule{
	Code:      "MEM001",
	Name:      "hf-gradient-checkpointing",
	Title:     "Enable gradient checkpointing for Hugging Face models trained on small GPUs",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"transformers"},
	Names:     []string{"from_pretrained"}, // findings are on X.from_pretrained(...) calls
	Check:     checkGradientCheckpointing,
}

func init() { Register(GradientCheckpointing) }

func checkGradientCheckpointing(p *Pass) {
	v := p.Env.Gate(Need{MaxVRAMGB: 24})
	if v.Silent() || mentionsCheckpointing(p) {
		return
	}
	for _, call := range p.File.MethodCalls("from_pretrained") {
		fn := call.ChildByField("function")
		q := p.Model.QualifiedName(fn.ChildByField("object"))
		cls := q[strings.LastIndex(q, ".")+1:]
		if !strings.HasPrefix(q, "transformers.") || !(strings.Contains(cls, "Model") || strings.Contains(cls, "For")) ||
			strings.ContainsAny(cls, "_") || strings.Contains(cls, "Config") || strings.Contains(cls, "Tokenizer") {
			continue
		}
		stmt := rewrite.Statement(call)
		if stmt == nil || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 || stmt.NamedChildren()[0].Type != "assignment" {
			continue
		}
		asg := stmt.NamedChildren()[0]
		left := asg.ChildByField("left")
		if left == nil || left.Type != "identifier" || !hfModelChain(asg.ChildByField("right"), call) {
			continue
		}
		b := p.Model.Binding(left)
		if b == nil || !hfModelTrained(p, b) {
			continue
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.InsertAfterEdit(stmt, left.Text()+".gradient_checkpointing_enable()"); ok {
			fix = Fix(rewrite.Hint, "Enable gradient checkpointing", e)
		}
		where := "on " + v.Assumption + " (at most 24 GB)"
		if v.Hint {
			where = "if the GPU has at most 24 GB: " + v.Assumption
		}
		p.Report(call, left.Text()+" is trained without gradient checkpointing: activations dominate memory "+where+
			"; "+left.Text()+".gradient_checkpointing_enable() trades about one extra forward for most of that memory", v.Downgrade(fix))
	}
}

// hfModelChain reports whether expr is call itself or call followed by
// .to(...)/.cuda()/.train()/... methods.
func hfModelChain(expr, call *rewrite.Node) bool {
	for expr != nil && expr != call {
		if expr.Type != "call" {
			return false
		}
		fn := expr.ChildByField("function")
		if fn.Type != "attribute" {
			return false
		}
		switch fn.ChildByField("attribute").Text() {
		case "to", "cuda", "train", "half", "bfloat16", "float":
			expr = fn.ChildByField("object")
		default:
			return false
		}
	}
	return expr == call
}

// hfModelTrained reports a use of the model's name called inside a
// training loop, or passed to a transformers/trl Trainer.
func hfModelTrained(p *Pass, b *rewrite.Binding) bool {
	for _, use := range b.Uses {
		par := use.Parent
		if par.Type == "call" && use.Field == "function" {
			for _, l := range p.Model.EnclosingLoops(use) {
				if p.Model.Loop(l).Trains() {
					return true
				}
			}
		}
		if par.Type == "keyword_argument" && par.ChildByField("name").Text() == "model" {
			par = par.Parent
		}
		if par.Type == "argument_list" {
			q := p.Model.CalleeName(par.Parent)
			if (strings.HasPrefix(q, "transformers.") || strings.HasPrefix(q, "trl.")) && strings.HasSuffix(q, "Trainer") {
				return true
			}
		}
	}
	return false
}

// mentionsCheckpointing reports any gradient_checkpointing name, keyword
// or text, a checkpoint_sequential name, or torch.utils.checkpoint use in
// the file.
func mentionsCheckpointing(p *Pass) bool {
	src := p.File.Src.Bytes
	return bytes.Contains(src, []byte("gradient_checkpointing")) || bytes.Contains(src, []byte("torch.utils.checkpoint")) ||
		p.File.SpellsMatching(func(name string) bool { return strings.Contains(name, "checkpoint_sequential") })
}

package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// MissingAutocast is AMP004.
var MissingAutocast = &Rule{
	Code:      "AMP004",
	Name:      "training-without-autocast",
	Title:     "Run the forward pass and loss under autocast",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"backward"}, // findings sit in loops of a `.backward()` call (callAttr)
	Check:     checkMissingAutocast,
}

func init() { Register(MissingAutocast) }

func checkMissingAutocast(p *Pass) {
	v := p.Env.Gate(Need{})
	if v.Silent() || !p.Model.UsesCUDA() || mentionsAutocast(p) {
		return
	}
	// Mixed precision chosen elsewhere: half/bf16 weights, HF Accelerate's
	// mixed_precision, a Lightning or Hugging Face Trainer's precision flag.
	// (torch.accelerator, the device API, says nothing about precision; a
	// class of the file called Trainer is just a class.)
	if p.File.SpellsAny([]string{"half", "bfloat16", "float16", "Accelerator"}) || p.Model.Imports("accelerate") ||
		p.Model.Imports("lightning") || p.Model.Imports("pytorch_lightning") || p.Model.Imports("transformers") && p.File.Spells("Trainer") {
		return
	}
	bf16 := v.Hint || p.Env.GPU.AtLeast(8, 0)
	var reported []*rewrite.Node
	for _, call := range p.File.MethodCalls("backward") {
		loops := p.Model.EnclosingLoops(call)
		var step *rewrite.Node // the loop, or the function a loop calls per batch
		switch {
		case len(loops) > 0 && p.Model.Loop(loops[0]).Trains():
			step = loops[0]
		case len(loops) == 0:
			step = stepFunction(p, call)
		}
		if step == nil {
			continue
		}
		bstmt := rewrite.Statement(call)
		if bstmt == nil || bstmt.Parent == nil || bstmt.Parent.Parent != step {
			continue
		}
		first, stmts := forwardStatements(p, bstmt)
		if first == nil || slices.Contains(reported, first) {
			continue // several backward calls after one forward: one finding
		}
		reported = append(reported, first)
		var fix *rewrite.Fix
		msg := "this training step runs the forward pass in fp32: wrap the forward and the loss in "
		if bf16 {
			msg += `torch.autocast("cuda", dtype=torch.bfloat16) (5.0× measured on an H100)`
			if torchName, ok := p.Model.LocalName(first, "torch.autocast"); ok {
				bfName, _ := p.Model.LocalName(first, "torch.bfloat16")
				if e, ok := wrapStatements(p, stmts, "with "+torchName+`("cuda", dtype=`+bfName+"):"); ok && bfName != "" {
					fix = Fix(rewrite.Hint, "Wrap the forward pass in bf16 autocast", e)
				}
			}
		} else {
			msg += `torch.autocast("cuda") with a torch.amp.GradScaler (` + p.Env.GPU.Describe() + " has no native bf16)"
		}
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		p.Report(first, msg, fix)
	}
}

// forwardStatements returns the first model call before the backward
// statement in its block and the statements from the one holding it up to
// the backward (excluded), or nil when they are not plain one-line-owning
// simple statements.
func forwardStatements(p *Pass, bstmt *rewrite.Node) (*rewrite.Node, []*rewrite.Node) {
	var before []*rewrite.Node
	for _, s := range rewrite.Statements(bstmt.Parent) {
		if s == bstmt {
			break
		}
		if s.Type != "comment" {
			before = append(before, s)
		}
	}
	for i, s := range before {
		var fwd *rewrite.Node
		s.Walk(func(n *rewrite.Node) bool {
			if fwd == nil && n.Type == "call" && (p.Model.IsModule(n.ChildByField("function")) || runsForward(p, n, 0)) {
				fwd = n
			}
			return fwd == nil
		})
		if fwd == nil {
			continue
		}
		stmts := before[i:]
		for _, st := range stmts {
			if st.Type != "expression_statement" {
				return fwd, nil
			}
		}
		return fwd, stmts
	}
	return nil, nil
}

// wrapStatements puts consecutive statements of one block under header,
// indenting each of their lines by the file's indentation unit.
func wrapStatements(p *Pass, stmts []*rewrite.Node, header string) (rewrite.Edit, bool) {
	if len(stmts) == 0 {
		return rewrite.Edit{}, false
	}
	src := p.File.Src
	first, last := stmts[0], stmts[len(stmts)-1]
	for _, s := range stmts {
		multi := false
		s.Walk(func(n *rewrite.Node) bool {
			if n.Type == "string" && src.LineOf(n.Start) != src.LineOf(n.End) {
				multi = true
			}
			return !multi
		})
		if multi {
			return rewrite.Edit{}, false
		}
	}
	if strings.TrimSpace(src.Text(src.LineStart(src.LineOf(first.Start)), first.Start)) != "" {
		return rewrite.Edit{}, false
	}
	lastLine := src.LineOf(last.End)
	if strings.TrimSpace(src.Text(last.End, src.LineEnd(lastLine))) != "" && !strings.HasPrefix(strings.TrimSpace(src.Text(last.End, src.LineEnd(lastLine))), "#") {
		return rewrite.Edit{}, false
	}
	start := src.LineStart(src.LineOf(first.Start))
	end := src.LineEnd(lastLine)
	var sb strings.Builder
	sb.WriteString(src.IndentOf(first.Start) + header + src.LineEnding)
	for l := src.LineOf(first.Start); l <= lastLine; l++ {
		text := src.Text(src.LineStart(l), src.LineEnd(l))
		if strings.TrimSpace(text) != "" {
			sb.WriteString(src.IndentUnit)
		}
		sb.WriteString(text)
		if l < lastLine {
			sb.WriteString(src.LineEnding)
		}
	}
	return rewrite.Edit{Start: start, End: end, New: sb.String()}, true
}

// stepFunction returns the function around n when it is a training step
// called once per batch: a call site of it (in this file) sits in a loop
// over a DataLoader (`for x, y in loader: self._run_batch(x, y)`).
func stepFunction(p *Pass, n *rewrite.Node) *rewrite.Node {
	def := n.Ancestor("function_definition")
	if def == nil {
		return nil
	}
	for _, site := range p.Model.CallSites(def) {
		if ls := p.Model.EnclosingLoops(site); len(ls) > 0 && p.Model.Loop(ls[0]).IteratesLoader {
			return def
		}
	}
	return nil
}

// runsForward reports a call of a function of this file whose body calls
// a model (`loss = calc_loss_batch(x, y, model, device)`), following such
// helpers two levels deep.
func runsForward(p *Pass, call *rewrite.Node, depth int) bool {
	def := p.Model.CalledDef(call)
	if def == nil || depth > 1 || def.Ancestor("class_definition") != nil && def.ChildByField("name").Text() == "__init__" {
		return false
	}
	for _, c := range p.File.OfTypeIn(def, "call") {
		if c.Ancestor("function_definition") != def {
			continue // in a nested function
		}
		if p.Model.IsModule(c.ChildByField("function")) || runsForward(p, c, depth+1) {
			return true
		}
	}
	return false
}

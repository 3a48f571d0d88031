package patterns

import (
	"github.com/gpuopt/gpuopt/rewrite"
)

// BatchedForward is VEC002.
var BatchedForward = &Rule{
	Code:      "VEC002",
	Name:      "batched-forward",
	Title:     "Call the model once on the batch, not once per sample",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Check:     checkBatchedForward,
}

func init() { Register(BatchedForward) }

func checkBatchedForward(p *Pass) {
	m := p.Model
	for _, comp := range p.File.OfType("list_comprehension") {
		body := comp.ChildByField("body")
		var clauses []*rewrite.Node
		for _, c := range comp.NamedChildren() {
			if c != body {
				clauses = append(clauses, c)
			}
		}
		if body == nil || body.Type != "call" || len(clauses) != 1 || clauses[0].Type != "for_in_clause" {
			continue
		}
		x, batch := clauses[0].ChildByField("left"), clauses[0].ChildByField("right")
		if x == nil || batch == nil || x.Type != "identifier" || !vecPureName(batch) {
			continue
		}
		fn := body.ChildByField("function")
		args := rewrite.PositionalArgs(body)
		if !m.IsModule(fn) || len(args) != 1 || len(body.ChildByField("arguments").NamedChildren()) != 1 || !vec2Unsqueezed(args[0], x.Text()) {
			continue
		}
		if vecCountReads(m, comp, x.Text()) != 1 || !m.IsTensorExpr(batch) {
			continue
		}
		batched := fn.Text() + "(" + batch.Text() + ")"
		msg := "one model call per sample: call the model once on the whole batch (" + batched + ")"
		consumer := vec2CatConsumer(m, comp)
		if consumer == nil {
			p.Report(comp, msg+" and adapt the uses of the list (by hand: gpuopt does not recognise them)", nil)
			continue
		}
		outs := comp.Parent.ChildByField("left").Text()
		p.Report(comp, msg, Fix(rewrite.Unsafe, "Call the model once on the batch",
			rewrite.Edit{Start: comp.Start, End: comp.End, New: batched},
			rewrite.Edit{Start: consumer.Start, End: consumer.End, New: outs}))
	}
}

// vec2Unsqueezed reports `x.unsqueeze(0)`, `x.unsqueeze(dim=0)` or `x[None]`.
func vec2Unsqueezed(a *rewrite.Node, x string) bool {
	switch a.Type {
	case "call":
		fn := a.ChildByField("function")
		if fn == nil || fn.Type != "attribute" || fn.ChildByField("attribute").Text() != "unsqueeze" {
			return false
		}
		obj := fn.ChildByField("object")
		args := a.ChildByField("arguments").NamedChildren()
		if obj.Type != "identifier" || obj.Text() != x || len(args) != 1 {
			return false
		}
		v := args[0]
		if v.Type == "keyword_argument" {
			if v.ChildByField("name").Text() != "dim" {
				return false
			}
			v = v.ChildByField("value")
		}
		return v.Type == "integer" && v.Text() == "0"
	case "subscript":
		idx := a.NamedChildren()
		return len(idx) == 2 && idx[0].Type == "identifier" && idx[0].Text() == x && idx[1].Type == "none"
	}
	return false
}

// vec2CatConsumer returns the `torch.cat(outs)` call that is the only use
// of the list the comprehension is assigned to (`outs = [...]`), or nil.
func vec2CatConsumer(m *rewrite.Model, comp *rewrite.Node) *rewrite.Node {
	a := comp.Parent
	if a == nil || a.Type != "assignment" || a.ChildByField("right") != comp || a.ChildByField("type") != nil {
		return nil
	}
	outs := a.ChildByField("left")
	if outs.Type != "identifier" || a.Parent.Type != "expression_statement" {
		return nil
	}
	s := m.VarScope(outs)
	if s == nil || s != m.ScopeOf(a) || len(s.Bindings[outs.Text()]) != 1 {
		return nil
	}
	reads := m.Reads(s, outs.Text(), m.File.Root)
	if len(reads) != 1 {
		return nil
	}
	r := reads[0]
	if r.Start < a.End || m.ScopeOf(r) != s || r.Parent.Type != "argument_list" {
		return nil
	}
	call := r.Parent.Parent
	switch m.CalleeName(call) {
	case "torch.cat", "torch.concat", "torch.concatenate":
	default:
		return nil
	}
	cargs := call.ChildByField("arguments").NamedChildren()
	if cargs[0] != r || rewrite.HasSplat(call) {
		return nil
	}
	if len(cargs) == 2 {
		d := cargs[1]
		if d.Type == "keyword_argument" {
			if d.ChildByField("name").Text() != "dim" {
				return nil
			}
			d = d.ChildByField("value")
		}
		if d.Type != "integer" || d.Text() != "0" {
			return nil
		}
	} else if len(cargs) != 1 {
		return nil
	}
	// The consumer must not sit in a loop the assignment is outside of.
	if len(m.EnclosingLoops(call)) != len(m.EnclosingLoops(a)) {
		return nil
	}
	return call
}

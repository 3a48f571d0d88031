package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// VectorizedLookup is VEC001.
var VectorizedLookup = &Rule{
	Code:      "VEC001",
	Name:      "vectorized-lookup",
	Title:     "Replace a per-element lookup loop with one indexing expression",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch", "numpy"},
	Names:     []string{"enumerate"}, // the loop iterates enumerate(ids)
	Check:     checkVectorizedLookup,
}

func init() { Register(VectorizedLookup) }

func checkVectorizedLookup(p *Pass) {
	m := p.Model
	for _, loop := range p.File.OfType("for_statement") {
		left, right := loop.ChildByField("left"), loop.ChildByField("right")
		body := rewrite.LoopBody(loop)
		if left == nil || right == nil || body == nil || loop.ChildByField("alternative") != nil || vecIsAsync(loop) {
			continue
		}
		vars := left.NamedChildren()
		if !left.Is("pattern_list", "tuple_pattern") || len(vars) != 2 || vars[0].Type != "identifier" || vars[1].Type != "identifier" {
			continue
		}
		iv, tv := vars[0].Text(), vars[1].Text()
		if m.CalleeName(right) != "enumerate" {
			continue
		}
		rargs := right.ChildByField("arguments").NamedChildren()
		if len(rargs) != 1 || rargs[0].Type == "keyword_argument" || rargs[0].Type == "list_splat" {
			continue
		}
		ids := rargs[0]
		if !vecPureName(ids) || !m.IsArrayExpr(ids) {
			continue
		}
		stmts := rewrite.Statements(body)
		if len(stmts) == 0 {
			continue
		}
		temps := map[string]*rewrite.Node{}
		tempUses := map[string]int{}
		tables := map[string]bool{}
		ok := true
		var lookup func(n *rewrite.Node) bool
		lookup = func(n *rewrite.Node) bool {
			switch n.Type {
			case "identifier":
				if n.Text() == tv {
					return true
				}
				if _, isTemp := temps[n.Text()]; isTemp {
					tempUses[n.Text()]++
					return true
				}
				return false
			case "subscript":
				v := n.ChildByField("value")
				idx := n.NamedChildren()
				if v == nil || v.Type != "identifier" || len(idx) != 2 {
					return false
				}
				tables[v.Text()] = true
				return lookup(idx[1])
			}
			return false
		}
		var out *rewrite.Node
		for k, st := range stmts {
			if st.Type != "expression_statement" || len(st.NamedChildren()) != 1 || st.NamedChildren()[0].Type != "assignment" {
				ok = false
				break
			}
			a := st.NamedChildren()[0]
			l, r := a.ChildByField("left"), a.ChildByField("right")
			if l == nil || r == nil || a.ChildByField("type") != nil || r.Type != "subscript" || !lookup(r) {
				ok = false
				break
			}
			if k < len(stmts)-1 {
				if l.Type != "identifier" || l.Text() == iv || l.Text() == tv {
					ok = false
					break
				}
				if _, dup := temps[l.Text()]; dup {
					ok = false
					break
				}
				temps[l.Text()] = r
				continue
			}
			idx := l.NamedChildren()
			if l.Type != "subscript" || len(idx) != 2 || idx[0].Type != "identifier" || idx[1].Type != "identifier" || idx[1].Text() != iv {
				ok = false
				break
			}
			out = idx[0]
		}
		if !ok || out == nil {
			continue
		}
		// Each temporary feeds exactly one later lookup; names do not collide.
		for name := range temps {
			if tempUses[name] != 1 || tables[name] {
				ok = false
			}
		}
		names := map[string]bool{iv: true, tv: true, out.Text(): true}
		for name := range tables {
			if names[name] {
				ok = false
			}
		}
		if _, clash := temps[out.Text()]; clash || iv == tv || strings.Contains(ids.Text(), out.Text()) && ids.Text() == out.Text() {
			ok = false
		}
		if !ok || m.LoopCarried(loop) || m.LoopVarEscapes(loop) || vecCountReads(m, loop, iv) != 1 || vecCountReads(m, loop, tv) != 1 {
			continue
		}
		if !m.IsArrayExpr(out) {
			continue
		}
		for name := range tables {
			if !m.IsArrayExpr(vecFindIdent(body, name)) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		last := stmts[len(stmts)-1].NamedChildren()[0].ChildByField("right")
		expr := vecRenderLookup(last, tv, ids.Text(), temps)
		newText := out.Text() + "[:len(" + ids.Text() + ")] = " + expr
		msg := "this loop looks up one element per iteration: index once with the whole id tensor (" + newText + ")"
		vecReplaceLoop(p, loop, right, msg, "Vectorise the lookup", newText)
	}
}

// vecIsAsync reports `async for`.
func vecIsAsync(loop *rewrite.Node) bool {
	return len(loop.Children) > 0 && loop.Children[0].Type == "async"
}

// vecPureName reports an identifier or a chain of attributes on one: cheap to
// evaluate twice and free of effects.
func vecPureName(n *rewrite.Node) bool {
	for n.Type == "attribute" {
		n = n.ChildByField("object")
	}
	return n.Type == "identifier"
}

// vecCountReads counts identifiers named name read inside region.
func vecCountReads(m *rewrite.Model, region *rewrite.Node, name string) int {
	c := 0
	region.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" && n.Text() == name && m.IsRead(n) {
			c++
		}
		return true
	})
	return c
}

// vecFindIdent returns the first read of name inside region.
func vecFindIdent(region *rewrite.Node, name string) *rewrite.Node {
	var out *rewrite.Node
	region.Walk(func(n *rewrite.Node) bool {
		if out == nil && n.Type == "identifier" && n.Text() == name && n.Field != "attribute" {
			out = n
		}
		return out == nil
	})
	return out
}

// vecRenderLookup writes a lookup chain with the element variable replaced by
// the whole id tensor and temporaries inlined.
func vecRenderLookup(n *rewrite.Node, tv, ids string, temps map[string]*rewrite.Node) string {
	switch n.Type {
	case "identifier":
		if n.Text() == tv {
			return ids
		}
		if e, ok := temps[n.Text()]; ok {
			return vecRenderLookup(e, tv, ids, temps)
		}
		return n.Text()
	case "subscript":
		idx := n.NamedChildren()
		return n.ChildByField("value").Text() + "[" + vecRenderLookup(idx[1], tv, ids, temps) + "]"
	}
	return n.Text()
}

// vecReplaceLoop reports loop (up to right, the end of its header) with a
// fix that replaces the whole loop by newText. Comments on the header line
// are kept after newText; a comment anywhere inside the loop would be lost,
// so then the finding comes without a fix.
func vecReplaceLoop(p *Pass, loop, right *rewrite.Node, msg, title, newText string) {
	headerLine := p.File.Src.LineOf(loop.Start)
	var kept []string
	commentsInside := false
	loop.Walk(func(n *rewrite.Node) bool {
		if n.Type == "comment" {
			if p.File.Src.LineOf(n.Start) == headerLine {
				kept = append(kept, n.Text())
			} else {
				commentsInside = true
			}
		}
		return true
	})
	if commentsInside {
		p.ReportRange(loop.Start, right.End, msg, nil)
		return
	}
	if len(kept) > 0 {
		newText += "  " + strings.Join(kept, " ")
	}
	p.ReportRange(loop.Start, right.End, msg,
		Fix(rewrite.Unsafe, title, rewrite.Edit{Start: loop.Start, End: loop.End, New: newText}))
}

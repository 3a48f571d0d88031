package patterns

import (
	"slices"

	"github.com/gpuopt/gpuopt/rewrite"
)

// offDefaultBranch reports code that runs only when a value is not what
// the script's default run gives it: inside `if args.encoder == "cnn":`
// (or an elif) where `--encoder` defaults to "mlp" (blind sample TT:
// NRI's CNN encoder behind a flag, its MLP encoder the default), or
// inside `if base_model == "resnet18":` in a function every call of which
// passes base_model="lenet" (blind sample S31B's ParetoMTL).
func offDefaultBranch(m *rewrite.Model, n *rewrite.Node) bool {
	for c := n.Parent; c != nil; c = c.Parent {
		if c.Type != "if_statement" && c.Type != "elif_clause" {
			continue
		}
		cons, cond := c.ChildByField("consequence"), c.ChildByField("condition")
		if cons == nil || !cons.Contains(n) || cond == nil || cond.Type != "comparison_operator" {
			continue
		}
		sides := cond.NamedChildren()
		if len(sides) != 2 || !slices.ContainsFunc(cond.Children, func(k *rewrite.Node) bool { return k.Type == "==" }) {
			continue
		}
		expr, lit := sides[0], sides[1]
		if lit.Type != "string" {
			expr, lit = lit, expr
		}
		want, ok := rewrite.StringValue(lit)
		if !ok {
			continue
		}
		if got, ok := knownString(m, expr, 0); ok && got != want {
			return true
		}
	}
	return false
}

// knownString returns the string expr holds on the script's default
// run: a command-line flag's default, or a parameter (never rebound) of
// a function of this file that every call of it here passes the same
// string (a literal, or a name that is itself known: `train(dataset,
// base_model)` inside `run(base_model="lenet")`), its default standing
// in where a call passes none.
func knownString(m *rewrite.Model, expr *rewrite.Node, depth int) (string, bool) {
	if def, _, flag := flagDefaultValue(m, expr); flag {
		if def == nil {
			return "", false
		}
		return rewrite.StringValue(def)
	}
	if expr.Type != "identifier" || depth > 3 {
		return "", false
	}
	b := m.Binding(expr)
	if b == nil || b.Kind != rewrite.ParamBinding || b.Ident == nil {
		return "", false
	}
	fn := b.Ident.Ancestor("function_definition")
	if fn == nil {
		return "", false
	}
	calls := m.CallSites(fn)
	if len(calls) == 0 {
		return "", false
	}
	value, known := "", false
	for _, call := range calls {
		if rewrite.HasSplat(call) {
			return "", false
		}
		a := rewrite.ArgumentFor(fn, call, b.Ident)
		if a == nil {
			if dp := b.Ident.Parent; dp != nil && dp.Is("default_parameter", "typed_default_parameter") {
				a = dp.ChildByField("value")
			}
		}
		if a == nil {
			return "", false
		}
		v, ok := rewrite.StringValue(a)
		if a.Type != "string" {
			v, ok = knownString(m, a, depth+1)
		}
		if !ok || known && v != value {
			return "", false
		}
		value, known = v, true
	}
	return value, known
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// perStepCallStatement returns the statement of a bare call statement
// `f(...)` that runs on every step of a hot loop, with that loop: the
// innermost loop around it is hot and holds no hot loop of its own, directly
// or in a same-file function it calls (a call in an epoch loop that wraps the
// step loop, or calls `train(...)`, ends a phase and is cheap), and
// no `if` / `else` / `except` / `finally` / `match` between the loop and the
// statement makes it conditional (a periodic or OOM-recovery call is
// deliberate). nil otherwise.
func perStepCallStatement(p *Pass, call *rewrite.Node) (stmt, loop *rewrite.Node) {
	stmt = call.Parent
	if stmt == nil || stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
		return nil, nil
	}
	loops := p.Model.EnclosingLoops(call)
	if len(loops) == 0 || !p.Model.Loop(loops[0]).Hot() {
		return nil, nil
	}
	loop = loops[0]
	for a := stmt.Parent; a != nil && a != loop; a = a.Parent {
		if a.Type == "if_statement" && mainProcessGuard(a.ChildByField("condition")) && !a.Contains(loop) {
			continue // `if rank == 0:` logs on every step of one process
		}
		if a.Is("if_statement", "elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause", "match_statement") {
			return nil, nil
		}
	}
	nested := false
	walkLoopBodyUntil(p.Model, loop, func(n *rewrite.Node) bool {
		if rewrite.IsLoop(n) && p.Model.Loop(n).Hot() {
			nested = true
		}
		if n.Type == "call" && (holdsHotLoop(p, p.Model.FunctionDef(n), 0) || importedHotLoop(p, n)) {
			nested = true
		}
		return !nested
	})
	if nested {
		return nil, nil
	}
	return stmt, loop
}

// holdsHotLoop reports whether the same-file function def runs a hot loop
// itself or through the same-file functions it calls (two levels deep).
func holdsHotLoop(p *Pass, def *rewrite.Node, depth int) bool {
	if def == nil || depth > 2 {
		return false
	}
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n != def && n.Is("function_definition", "class_definition", "lambda") {
			return false
		}
		if rewrite.IsLoop(n) && p.Model.Loop(n).Hot() {
			found = true
		} else if n.Type == "call" {
			if inner := p.Model.FunctionDef(n); inner != def && holdsHotLoop(p, inner, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// importedHotLoop reports a call of a function of another project module
// (`train_one_epoch(...)` imported from engine.py) whose body runs a hot
// loop: the loop around the call is then the epoch loop, not the step.
func importedHotLoop(p *Pass, call *rewrite.Node) bool {
	d := p.Model.ImportedDef(call.ChildByField("function"))
	if d == nil || d.Class {
		return false
	}
	fm, def := p.Model.DefinitionOf(d)
	if def == nil || def.Type != "function_definition" {
		return false
	}
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n != def && rewrite.IsDefOrLambda(n) {
			return false
		}
		if rewrite.IsLoop(n) && fm.Loop(n).Hot() {
			found = true
		}
		return !found
	})
	return found
}

// mainProcessGuard reports an if condition that picks the process that
// logs in a distributed run, not the step: `rank == 0`, `args.nr == 0`,
// `args.local_rank in [-1, 0]`, `is_main_process()`,
// `accelerator.is_main_process` (SimCLR's `if args.nr == 0:` around a
// per-step add_scalar: blind sample XX). Such a block runs on every step
// of that process.
func mainProcessGuard(cond *rewrite.Node) bool {
	if cond == nil {
		return false
	}
	if cond.Type == "boolean_operator" || cond.Type == "not_operator" {
		return false
	}
	t := strings.ToLower(strings.Join(strings.Fields(cond.Text()), ""))
	if strings.Contains(t, "%") || strings.Contains(t, "step") || strings.Contains(t, "iter") || strings.Contains(t, "epoch") || strings.Contains(t, "batch") {
		return false
	}
	if strings.Contains(t, "main_process") || strings.Contains(t, "is_master") || strings.Contains(t, "is_main") {
		return true
	}
	for _, suffix := range []string{"rank==0", "nr==0", "rankin[-1,0]", "rankin(-1,0)", "rank<=0"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	return false
}

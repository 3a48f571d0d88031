package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// EmptyCacheInLoop is SYNC004.
var EmptyCacheInLoop = &Rule{
	Code:      "SYNC004",
	Name:      "empty-cache-in-hot-loop",
	Title:     "Remove torch.cuda.empty_cache() from the training/inference step",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"empty_cache"}, // every spelling of torch.cuda.empty_cache ends in it
	Check:     checkEmptyCacheInLoop,
}

func init() { Register(EmptyCacheInLoop) }

func checkEmptyCacheInLoop(p *Pass) {
	for _, call := range p.Model.CallsTo("torch.cuda.empty_cache") {
		if rewrite.HasSplat(call) {
			continue
		}
		stmt, loop := perStepCallStatement(p, call)
		if stmt == nil || waitsForUser(p, loop) {
			continue // an interactive loop (blind sample S15C's stylize prompt)
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
			fix = Fix(rewrite.Safe, "Remove torch.cuda.empty_cache()", e)
		}
		p.Report(call, "torch.cuda.empty_cache() on every step releases PyTorch's cached memory only for the next step to allocate it again (slow cudaMalloc, extra synchronisation); remove it", fix)
	}
}

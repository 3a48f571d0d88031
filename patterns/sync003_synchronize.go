package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// SynchronizeInLoop is SYNC003.
var SynchronizeInLoop = &Rule{
	Code:      "SYNC003",
	Name:      "synchronize-in-hot-loop",
	Title:     "Remove torch.cuda.synchronize() from the step when nothing is timed",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"synchronize"}, // every spelling of torch.cuda.synchronize ends in it
	Check:     checkSynchronizeInLoop,
}

func init() { Register(SynchronizeInLoop) }

func checkSynchronizeInLoop(p *Pass) {
	for _, call := range p.Model.CallsTo("torch.cuda.synchronize") {
		if rewrite.HasSplat(call) {
			continue
		}
		stmt, loop := perStepCallStatement(p, call)
		if stmt == nil || timesCode(p, loop) || timedIteration(p, loop) {
			continue
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
			fix = Fix(rewrite.Unsafe, "Remove torch.cuda.synchronize()", e)
		}
		p.Report(call, "torch.cuda.synchronize() on every step makes the CPU wait for the GPU, so the next step cannot be prepared while this one runs; nothing here is timed, remove it", fix)
	}
}

// timesCode reports whether the step loop measures time: time.*,
// timeit, datetime.now, CUDA events, the profiler or NVTX in its body.
// A time read once per epoch around the loop (`start = time.time()`
// before it, a time per batch after it) needs no synchronize per step
// (blind sample S30C's TransReID, whose per-step synchronize went
// unreported for its epoch timer).
func timesCode(p *Pass, scope *rewrite.Node) bool {
	found := false
	scope.Walk(func(c *rewrite.Node) bool {
		if found {
			return false
		}
		if !c.Is("attribute", "identifier") {
			return true
		}
		q := p.Model.QualifiedName(c)
		for _, pre := range []string{"time.", "timeit.", "datetime.", "torch.cuda.Event", "torch.cuda.nvtx", "torch.profiler", "torch.autograd.profiler", "torch.utils.benchmark", "torch.cuda.Stream"} {
			if strings.HasPrefix(q, pre) {
				found = true
			}
		}
		if c.Type == "attribute" {
			switch c.ChildByField("attribute").Text() {
			case "elapsed_time", "perf_counter", "perf_counter_ns", "record_event", "wait_stream":
				found = true
			}
		}
		return !found
	})
	return found
}

// timedIteration reports a loop driven by a metric logger that times each
// iteration: `for batch in metric_logger.log_every(loader, freq)` (the
// MetricLogger of torchvision's reference scripts, copied into many
// research repositories, reports per-iteration times; a synchronize in its
// loop makes them right).
func timedIteration(p *Pass, loop *rewrite.Node) bool {
	if loop == nil || loop.Type != "for_statement" {
		return false
	}
	right := loop.ChildByField("right")
	if right == nil {
		return false
	}
	for _, c := range p.File.OfTypeIn(right, "call") {
		if a := callAttr(c); a == "log_every" || a == "log_every_n" {
			return true
		}
	}
	return right.Type == "call" && callAttr(right) == "log_every"
}

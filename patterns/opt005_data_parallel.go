package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// DataParallel is OPT005.
var DataParallel = &Rule{
	Code:      "OPT005",
	Name:      "data-parallel",
	Title:     "Use DistributedDataParallel instead of nn.DataParallel",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"DataParallel"}, // every spelling of nn.DataParallel ends in it
	Check:     checkDataParallel,
}

func init() { Register(DataParallel) }

func checkDataParallel(p *Pass) {
	// An inference script (eval(), no training, no backward): DDP's
	// advice is for training; there the fix is to drop the wrapper.
	if !p.Model.IsTrainingScript() && !p.File.Spells("backward") && len(p.File.MethodCalls("eval")) > 0 {
		return
	}
	for _, call := range p.Model.CallsTo("torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel") {
		if inNoCUDABranch(p, call) {
			continue // the CPU fallback: DataParallel there does nothing
		}
		p.Report(call, "nn.DataParallel replicates the model every step and gathers on one GPU: use DistributedDataParallel (one process per GPU, launched with torchrun)", nil)
	}
}

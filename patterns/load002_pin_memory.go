package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// LoaderPinMemory is LOAD002.
var LoaderPinMemory = &Rule{
	Code:      "LOAD002",
	Name:      "dataloader-pin-memory",
	Title:     "Pass pin_memory=True to a DataLoader with workers that feeds the GPU",
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"num_workers"}, // it needs a num_workers= keyword with a literal > 0 (the sixth positional argument is left out)
	Check:     checkLoaderPinMemory,
}

func init() { Register(LoaderPinMemory) }

func checkLoaderPinMemory(p *Pass) {
	for _, gl := range gpuLoaders(p) {
		if !gl.Known || gl.WorkersN <= 0 || rewrite.KeywordArg(gl.Call, "pin_memory") != nil {
			continue
		}
		e, ok := rewrite.AppendItem(gl.Call.ChildByField("arguments"), "pin_memory=True")
		if !ok {
			continue
		}
		p.Report(gl.Call, "this DataLoader feeds the GPU without pin_memory=True: batches are copied from pageable memory, synchronously",
			Fix(rewrite.Safe, "Pass pin_memory=True", e))
	}
}

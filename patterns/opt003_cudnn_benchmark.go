package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CudnnBenchmark is OPT003.
var CudnnBenchmark = &Rule{
	Code:            "OPT003",
	Name:            "cudnn-benchmark",
	Title:           "Set torch.backends.cudnn.benchmark = True in convolutional training",
	Fix:             rewrite.Unsafe,
	Severity:        rewrite.Information,
	Libraries:       []string{"torch"},
	Names:           []string{"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "models"}, // torch.nn.Conv* classes, or torchvision.models.* (always spells models)
	SkipTestModules: true,
	Check:           checkCudnnBenchmark,
}

func init() { Register(CudnnBenchmark) }

func checkCudnnBenchmark(p *Pass) {
	if !p.Model.IsTrainingScript() || !p.Model.UsesCUDA() || determinismRequested(p) || mentionsQualified(p, "torch.backends.cudnn.benchmark") {
		return
	}
	conv := false
	for _, call := range torchCalls(p) {
		q := p.Model.CalleeName(call)
		if strings.HasPrefix(q, "torch.nn.Conv") || strings.HasPrefix(q, "torch.nn.ConvTranspose") || strings.HasPrefix(q, "torchvision.models.") && !strings.Contains(q, "vit") && !strings.Contains(q, "swin") {
			conv = true
			break
		}
	}
	if !conv {
		return
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok {
		return
	}
	var fix *rewrite.Fix
	if e, ok := insertModuleStatement(p, "torch.backends.cudnn.benchmark", " = True"); ok {
		fix = Fix(rewrite.Unsafe, "Set torch.backends.cudnn.benchmark = True after the imports", e)
	}
	p.ReportRange(start, end, "convolutional training without torch.backends.cudnn.benchmark = True: cuDNN picks convolution algorithms by heuristics (no gain measured at fixed standard shapes; not reproducible bit for bit)", fix)
}

package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// CudaAmpGradScaler is AMP002.
var CudaAmpGradScaler = &Rule{
	Code:      "AMP002",
	Name:      "deprecated-cuda-grad-scaler",
	Title:     `Replace torch.cuda.amp.GradScaler(...) with torch.amp.GradScaler("cuda", ...)`,
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"GradScaler"}, // every spelling of the deprecated callable ends in it
	Check:     checkCudaAmpGradScaler,
}

func init() { Register(CudaAmpGradScaler) }

var gradScalerDeprecation = ampDeprecation{
	olds:      []string{"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler"},
	newQ:      "torch.amp.GradScaler",
	newModule: "torch.amp",
	name:      "GradScaler",
	params:    []string{"init_scale", "growth_factor", "backoff_factor", "growth_interval", "enabled"},
	msg:       `torch.cuda.amp.GradScaler is deprecated: use torch.amp.GradScaler("cuda", ...)`,
	since:     Version{2, 3},
}

func checkCudaAmpGradScaler(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(2, 3) {
		return
	}
	checkAmpDeprecated(p, gradScalerDeprecation)
}

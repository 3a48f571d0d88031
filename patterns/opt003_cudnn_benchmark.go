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
	Doc: `## What it does
Finds a training script on CUDA whose model uses convolutions (` + "`nn.Conv1d/2d/3d`" + `,
their transposed forms, or a ` + "`torchvision.models`" + ` network) and that never
sets ` + "`torch.backends.cudnn.benchmark`" + `.

## Why is this bad?
With ` + "`benchmark = True`" + ` cuDNN times its convolution algorithms for each new
input shape and keeps the fastest; without it, it picks one by heuristics,
which is not always the fastest for your shapes.

## Example
` + "```python" + `
import torch
import torchvision

model = torchvision.models.resnet18().cuda()
` + "```" + `

## Use instead
` + "```python" + `
import torch
import torchvision

torch.backends.cudnn.benchmark = True
model = torchvision.models.resnet18().cuda()
` + "```" + `

## Fix safety
Unsafe: the algorithm cuDNN picks can differ from run to run, so results are
not bitwise reproducible, and the first step of every new input shape is
slower (variable-shape inputs can end up slower overall). Silent when the
file asks for determinism anywhere (` + "`torch.backends.cudnn.deterministic`" + `,
` + "`torch.use_deterministic_algorithms`" + `, ` + "`deterministic=`" + `,
` + "`CUBLAS_WORKSPACE_CONFIG`" + `) or sets ` + "`benchmark`" + ` itself, and in test
modules (a global switch there affects every later test of the session).

## Measured gain
ResNet-18, batch 128, training step on an H100: 27.5 → 27.5 ms, **1.00×**: no
gain at fixed standard shapes, where the heuristics already choose well. Low
priority; it can help unusual shapes and older GPUs.
`,
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

package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// TF32Matmul is AMP005.
var TF32Matmul = &Rule{
	Code:            "AMP005",
	Name:            "enable-tf32",
	Title:           `Enable TF32 matmuls: torch.set_float32_matmul_precision("high")`,
	Fix:             rewrite.Unsafe,
	Severity:        rewrite.Information,
	Libraries:       []string{"torch"},
	Names:           []string{"backward", "step"}, // IsTrainingScript needs a loop calling .backward() or <optimizer>.step()
	SkipTestModules: true,
	Check:           checkTF32,
	Doc: `## What it does
Finds a training script (a loop that runs ` + "`.backward()`" + ` or an optimizer step)
that never chooses a float32 matmul precision: no
` + "`torch.set_float32_matmul_precision(...)`" + `, no
` + "`torch.backends.cuda.matmul.allow_tf32`" + `, no ` + "`fp32_precision`" + ` setting, on a GPU
with compute capability >= 8.0.

## Why is this bad?
PyTorch computes float32 matrix multiplications in full fp32 by default. On
Ampere and newer GPUs the tensor cores run them in TF32 (fp32 range, 10-bit
mantissa) many times faster; every fp32 part of the model (all of it without
autocast, and what autocast keeps in fp32) benefits.

## Example
` + "```python" + `
import torch

model = Net().cuda()
` + "```" + `

## Use instead
` + "```python" + `
import torch
torch.set_float32_matmul_precision("high")

model = Net().cuda()
` + "```" + `

## Fix safety
Unsafe: float32 matmuls (and convolutions' matmul parts) lose mantissa bits,
so results change slightly; most training is insensitive to it, but
numerically delicate code (solvers, some scientific models) may not be. The
statement is inserted after the module's imports. Silent when the file sets
any matmul precision itself, and in test modules (test_*.py, *_test.py,
conftest.py, files importing pytest or unittest), where a global switch would
change every later test of the session; without a known GPU it is a hint
that says what it assumed.

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): a 4-layer transformer
encoder (d 1024, seq 512, batch 16) training step: fp32 66.6 ms → TF32
27.1 ms (**2.46×**; the guides' 1.2–1.5× understates it on Hopper).
`,
}

func init() { Register(TF32Matmul) }

func checkTF32(p *Pass) {
	v := p.Env.Gate(Need{MinCompute: 80})
	if v.Silent() || !p.Model.IsTrainingScript() || !p.Model.UsesCUDA() {
		return
	}
	if p.File.SpellsAny([]string{"set_float32_matmul_precision", "allow_tf32", "fp32_precision"}) {
		return
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok {
		return
	}
	var fix *rewrite.Fix
	if e, ok := insertModuleStatement(p, "torch.set_float32_matmul_precision", `("high")`); ok {
		fix = v.Downgrade(Fix(rewrite.Unsafe, `Call torch.set_float32_matmul_precision("high") after the imports`, e))
	}
	msg := "this script trains with full-fp32 matmuls: TF32 tensor cores on " + v.Assumption + ` run them ~2.46× faster (H100); call torch.set_float32_matmul_precision("high")`
	if v.Hint {
		msg = `this script trains with full-fp32 matmuls: on GPUs with compute capability >= 8.0 TF32 is ~2.46× faster (H100); call torch.set_float32_matmul_precision("high") (` + v.Assumption + ")"
	}
	p.ReportRange(start, end, msg, fix)
}

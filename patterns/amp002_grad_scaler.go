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
	Doc: `## What it does
Finds the deprecated ` + "`torch.cuda.amp.GradScaler(...)`" + `, called through the
module path or imported with ` + "`from torch.cuda.amp import GradScaler`" + `.

## Why is this bad?
` + "`torch.cuda.amp.GradScaler`" + ` is deprecated since PyTorch 2.4 and warns when
constructed; ` + "`torch.amp.GradScaler(\"cuda\", ...)`" + ` (PyTorch >= 2.3) is
the same class for every device type.

## Example
` + "```python" + `
scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
` + "```" + `

## Use instead
` + "```python" + `
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
` + "```" + `

## Fix safety
Safe: the deprecated class is a thin subclass that passes its arguments to
` + "`torch.amp.GradScaler(\"cuda\", ...)`" + `; the keywords (` + "`init_scale`, `growth_factor`, `backoff_factor`, `growth_interval`, `enabled`" + `)
are the same, and positional arguments become keywords. Only fires when the
project uses PyTorch >= 2.3. The import form is rewritten only when every use
of the imported name is a call, and the ` + "`torch.cuda.amp.GradScaler(...)`" + ` form
only when the file never uses that name other than to call it: an
` + "`isinstance(s, torch.cuda.amp.GradScaler)`" + ` check would be False for the new
class, so such files get the finding without a fix.
Spellings kept for old releases (behind a version test, or in a ` + "`try`" + ` with
an ImportError/AttributeError fallback) are not reported.

## Measured gain
None: this is a deprecation fix.
`,
}

func init() { Register(CudaAmpGradScaler) }

var gradScalerDeprecation = ampDeprecation{
	olds:      []string{"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler"},
	newQ:      "torch.amp.GradScaler",
	newModule: "torch.amp",
	name:      "GradScaler",
	params:    []string{"init_scale", "growth_factor", "backoff_factor", "growth_interval", "enabled"},
	msg:       `torch.cuda.amp.GradScaler is deprecated: use torch.amp.GradScaler("cuda", ...)`,
}

func checkCudaAmpGradScaler(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(2, 3) {
		return
	}
	checkAmpDeprecated(p, gradScalerDeprecation)
}

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
	Doc: `## What it does
Finds the deprecated ` + "`torch.cuda.amp.autocast`" + ` in every form: a call, a
` + "`with`" + ` statement, a decorator (` + "`@torch.cuda.amp.autocast()`" + `), and
` + "`from torch.cuda.amp import autocast`" + ` (the import and each of its calls).

## Why is this bad?
` + "`torch.cuda.amp.autocast`" + ` is deprecated since PyTorch 2.4 and warns on
every use; ` + "`torch.autocast(\"cuda\", ...)`" + ` is the same context manager,
one API for every device type.

## Example
` + "```python" + `
from torch.cuda.amp import autocast

with autocast(enabled=use_amp):
    loss = model(x)
` + "```" + `

## Use instead
` + "```python" + `
from torch import autocast

with autocast("cuda", enabled=use_amp):
    loss = model(x)
` + "```" + `

## Fix safety
Safe: ` + "`torch.cuda.amp.autocast(...)`" + ` is implemented as
` + "`torch.autocast(\"cuda\", ...)`" + ` with the same keywords (` + "`enabled`, `dtype`, `cache_enabled`" + `).
Positional arguments become keywords because the new callable takes the device
type first. A call without a dtype gets ` + "`dtype=torch.float16`" + ` spelled out:
the old callable defaults to float16, while ` + "`torch.autocast(\"cuda\")`" + ` takes
the dtype of an enclosing autocast region (a decorated forward called inside
a bf16 region would switch from fp16 to bf16); where ` + "`torch`" + ` is not imported
the finding has no fix. The
import form is rewritten only when every use of the imported name is a call;
calls with ` + "`*args`" + ` are reported without a fix. Spellings kept for old
releases (in a branch of a version test such as ` + "`is_torch_version(...)`" + ` or
` + "`hasattr(torch, ...)`" + `, after such a test that returns, or in a ` + "`try`" + ` whose
` + "`except`" + ` catches ImportError/AttributeError) are not reported.

## Measured gain
None: this is a deprecation fix.
`,
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
}

func checkCudaAmpAutocast(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(1, 10) {
		return
	}
	checkAmpDeprecated(p, autocastDeprecation)
}

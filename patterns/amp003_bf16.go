package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// BF16Autocast is AMP003.
var BF16Autocast = &Rule{
	Code:      "AMP003",
	Name:      "fp16-scaler-to-bf16",
	Title:     "Use bf16 autocast (no loss scaling) instead of fp16 + GradScaler on Ampere and newer",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"GradScaler"}, // the finding needs exactly one GradScaler call, and every qualified spelling of it ends in GradScaler
	Check:     checkBF16Autocast,
	Doc: `## What it does
Finds float16 CUDA autocast (` + "`dtype=torch.float16`" + ` or no dtype: float16 is the
default) used together with a ` + "`GradScaler`" + `, on a GPU with compute capability
>= 8.0 (A100, RTX 30xx/40xx, H100, ...).

## Why is this bad?
fp16 has a narrow exponent range, so gradients must be scaled to avoid
underflow: the scaler multiplies the loss, checks every gradient for inf/NaN
each step (a reduction and a host sync on overflow), and skips steps. bf16 has
fp32's exponent range and needs none of that, and it is native on these GPUs.

## Example
` + "```python" + `
scaler = torch.amp.GradScaler("cuda")
with torch.autocast("cuda"):
    loss = loss_fn(model(x), y)
scaler.scale(loss).backward()
scaler.step(optimizer)
scaler.update()
` + "```" + `

## Use instead
` + "```python" + `
scaler = torch.amp.GradScaler("cuda", enabled=False)
with torch.autocast("cuda", dtype=torch.bfloat16):
    loss = loss_fn(model(x), y)
scaler.scale(loss).backward()   # pass-through when disabled
scaler.step(optimizer)          # plain optimizer.step()
scaler.update()                 # no-op
` + "```" + `

## Fix safety
Unsafe: bf16 keeps fewer mantissa bits than fp16 (8 vs 11), so activations are
less precise, and results change. The scaler is constructed with
` + "`enabled=False`" + ` so every ` + "`scaler.*`" + ` call becomes a pass-through and the loop is
not restructured; ` + "`scaler.get_scale()`" + ` then returns 1.0 and
` + "`scaler.state_dict()`" + ` is empty (checkpoints saved before still load). Fires only
when the file has exactly one ` + "`GradScaler`" + ` and every CUDA autocast in it has a
literal dtype (or none); without a known GPU it is a hint that says what it assumed.

## Measured gain
Measured with ` + "`corpus/gpu/gains.py`" + ` on an NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0;
medians, before → after; .notes/gains-h100.txt has every run): a 4-layer transformer
encoder (d 1024, seq 512, batch 16) training step took 13.5 ms with fp16 +
GradScaler and 13.4 ms with bf16 (**1.01×**). The case for this rewrite is
robustness (no overflow, no skipped steps, no scaler), not speed. The
catalogue's earlier run saw bf16 a little slower (0.85×) on the same step.
`,
}

func init() { Register(BF16Autocast) }

var gradScalerNames = []string{
	"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler",
	"torch.amp.GradScaler", "torch.amp.grad_scaler.GradScaler", "torch.GradScaler",
}

func checkBF16Autocast(p *Pass) {
	v := p.Env.Gate(Need{MinCompute: 80})
	if v.Silent() {
		return
	}
	scalers := p.Model.CallsTo(gradScalerNames...)
	if len(scalers) != 1 {
		return
	}
	scaler := scalers[0]
	if rewrite.HasSplat(scaler) {
		return
	}
	acs := autocastCalls(p)
	var fp16 []autocastCall
	for _, ac := range acs {
		if !ac.Known {
			return
		}
		if ac.FP16 {
			fp16 = append(fp16, ac)
		}
	}
	if len(fp16) == 0 {
		return
	}
	bf16, ok := p.Model.LocalName(fp16[0].Call, "torch.bfloat16")
	if !ok {
		return
	}
	var edits []rewrite.Edit
	for _, ac := range fp16 {
		if dt := rewrite.KeywordValue(ac.Call, "dtype"); dt != nil {
			edits = append(edits, rewrite.Edit{Start: dt.Start, End: dt.End, New: bf16})
			continue
		}
		if len(rewrite.PositionalArgs(ac.Call)) > 1 {
			return // positional dtype: leave it to the user
		}
		e, ok := rewrite.AppendItem(ac.Call.ChildByField("arguments"), "dtype="+bf16)
		if !ok {
			return
		}
		edits = append(edits, e)
	}
	// The scaler's enabled flag: keyword, or the fifth positional of the
	// deprecated class / sixth of torch.amp.GradScaler.
	enabledPos := 4
	if q := p.Model.CalleeName(scaler); q == "torch.amp.GradScaler" || q == "torch.amp.grad_scaler.GradScaler" || q == "torch.GradScaler" {
		enabledPos = 5
	}
	if en := rewrite.Arg(scaler, enabledPos, "enabled"); en != nil {
		if en.Type == "false" {
			return // already disabled
		}
		edits = append(edits, rewrite.Edit{Start: en.Start, End: en.End, New: "False"})
	} else {
		e, ok := rewrite.AppendItem(scaler.ChildByField("arguments"), "enabled=False")
		if !ok {
			return
		}
		edits = append(edits, e)
	}
	gpu := v.Assumption
	msg := "fp16 autocast with a GradScaler: bf16 is native on " + gpu + " and needs no loss scaling; use dtype=torch.bfloat16 and construct the scaler with enabled=False"
	if v.Hint {
		msg = "fp16 autocast with a GradScaler: on GPUs with compute capability >= 8.0 bf16 needs no loss scaling (" + gpu + ")"
	}
	p.Report(scaler, msg, v.Downgrade(Fix(rewrite.Unsafe, "Autocast to bf16 and disable the scaler", edits...)))
}

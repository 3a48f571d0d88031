package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// BF16Autocast is AMP003.
var BF16Autocast = &Rule{
	Code:      "AMP003",
	Name:      "fp16-scaler-to-bf16",
	Title:     "Use bf16 autocast (no loss scaling) instead of fp16 + GradScaler on Ampere and newer",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch", "lightning", "pytorch_lightning"},
	Names:     []string{"GradScaler", "Trainer"}, // the finding needs exactly one GradScaler call (every qualified spelling of it ends in GradScaler), or a Lightning Trainer
	Check:     checkBF16Autocast,
}

func init() { Register(BF16Autocast) }

var gradScalerNames = []string{
	"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler",
	"torch.amp.GradScaler", "torch.amp.grad_scaler.GradScaler", "torch.GradScaler",
}

// torchFFTSpellings are the ways a module calls torch's FFTs, which take
// fp16 (power-of-two sizes) and fp32 but not bf16, and builds complex
// tensors from real ones, which bf16 cannot be: torch.stft and istft run
// cuFFT, and view_as_complex takes half, float and double only (blind
// sample S21K's source-separation U-Net, whose autocast fix raised there).
var torchFFTSpellings = []string{"torch.fft", "from torch import fft", "torch.rfft(", "torch.irfft(", "torch.stft(", "torch.istft(", "view_as_complex("}

func checkBF16Autocast(p *Pass) {
	v := p.Env.Gate(Need{MinCompute: 80})
	if v.Silent() || !p.Env.Versions.Torch.AtLeast(1, 10) {
		return // autocast takes a dtype (bf16) from torch 1.10
	}
	if usesLightning(p) {
		checkLightningFP16(p, v)
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
	fix := Fix(rewrite.Unsafe, "Autocast to bf16 and disable the scaler", edits...)
	if p.Model.ProjectSpells(torchFFTSpellings...) {
		// cuFFT has no bf16 kernels: an FFT of an autocast activation
		// (FEDformer's Fourier attention, blind sample S16Q) raises
		// "Unsupported dtype BFloat16" once the autocast is bf16 (torch
		// 2.11 on an H200, .notes/fft-bf16-h200.txt).
		msg += "; but this project calls torch.fft, which has no bf16 kernels (RuntimeError: Unsupported dtype BFloat16): a model that takes FFTs of autocast activations (Fourier or auto-correlation attention) needs .float() before each FFT first, or keeps fp16"
		fix = nil
	}
	if half := explicitHalf(p, fp16); half != nil {
		// A tensor the script makes fp16 itself meets the autocast's
		// outputs: bf16 against fp16 outside autocast raises (blind
		// sample S37C's CLIP-LoRA, `textual_features.t().half()` times the
		// image features).
		msg += "; but this file makes fp16 tensors itself (" + half.Text() + " at line " + p.LineOf(half) +
			"), which would meet bf16 autocast outputs outside autocast (RuntimeError: expected both operands to have the same dtype): make them bf16 too, then switch"
		fix = nil
	}
	if spikingjellyCupy(p) {
		// fp16 with a scaler is the only mixed precision spikingjelly's
		// cupy neurons run: their kernels exist for float32 and float16
		// and raise NotImplementedError on bf16 (blind sample S22C).
		return
	}
	if customKernels(p) {
		// Kernels of the project's own that dispatch on fp32/fp16 only
		// raise on the bf16 activations of the switched autocast
		// (spikingjelly's cupy neurons: blind sample S22C).
		msg += customKernelsWhy + ": check that they do before switching, or keep fp16"
		fix = nil
	}
	if dataParallelThreads(p) {
		// The replicas' autocast runs fp16 whatever the main thread's
		// dtype: with the scaler off, their gradients may underflow.
		msg += dataParallelNote
		fix = nil
	}
	if len(p.Model.ProjectSourcesSpelling("autocast(")) > 1 {
		// Other modules run autocast regions of their own, which this
		// file's fix does not rewrite: disabling the scaler would leave
		// them in fp16 without loss scaling (blind sample S18G's
		// MobileNetV3, whose scaler class lives in utils.py and whose
		// training autocast in engine.py).
		msg += "; the project's other modules run autocast regions too: switch those to bf16 as well before the scaler goes"
		fix = nil
	}
	if cudnnRecurrentLayer(p) != "" {
		// cuDNN's RNN autocast casts to fp16 whatever dtype the region
		// asks for (torch 2.11 on an H200, .notes/rnn-autocast-h200.txt):
		// the recurrent layer stays fp16 and needs the scaler, so the
		// switch leaves nothing to gain (blind sample S31C judged the
		// finding, which said to keep the scaler, self-cancelling).
		return
	}
	if p.Model.ProjectSpells("nn.LSTM(", "nn.GRU(", "nn.RNN(", "nn.LSTMCell(", "nn.GRUCell(") {
		// A recurrent layer elsewhere in the project may run in this
		// step without this file building it (a pitch extractor's LSTMs
		// handed to the trainer: blind sample S32R's StarGANv2-VC, where
		// the fix left them in fp16 without loss scaling). The finding
		// stays, without the fix.
		msg += "; but the project builds recurrent layers (nn.LSTM, nn.GRU) in other modules: cuDNN runs them in fp16 under autocast whatever the dtype asked, and their gradients need the scaler; switch only if none runs in this step"
		fix = nil
	}
	if unconvertedNumpy(p) {
		// fp16 tensors convert to NumPy (float16); bf16 ones do not.
		msg += "; but this file hands tensors to NumPy (.numpy()) without .float(), which fp16 allows and bf16 refuses (TypeError): convert them first, then switch"
		fix = nil
	}
	p.Report(scaler, msg, v.Downgrade(fix))
}

// unconvertedNumpy reports a `.numpy()` call in the file whose tensor is
// not converted to a NumPy dtype first (`.float()`, `.double()`, `.long()`,
// `.int()`, `.bool()` somewhere in its chain): under fp16 autocast such a
// tensor may be float16, which NumPy has, and under bf16 bfloat16, which it
// has not.
func unconvertedNumpy(p *Pass) bool {
	for _, call := range p.File.MethodCalls("numpy") {
		converted := false
		for e := call.ChildByField("function").ChildByField("object"); e != nil && e.Type == "call"; {
			fn := e.ChildByField("function")
			if fn == nil || fn.Type != "attribute" {
				break
			}
			switch fn.ChildByField("attribute").Text() {
			case "float", "double", "long", "int", "bool", "argmax", "argmin", "item", "tolist":
				converted = true
			}
			e = fn.ChildByField("object")
		}
		if !converted {
			return true
		}
	}
	return false
}

// checkLightningFP16 is AMP003 for PyTorch Lightning, whose Trainer runs
// the autocast and the scaler: a Trainer that fits on the GPU with
// `precision=16` (`"16"`, `"16-mixed"`) gets bf16 instead
// (`"bf16-mixed"`; `"bf16"` on Lightning 1.5 to 1.9), which needs no
// loss scaling (blind sample S24H's MixVPR, fp16 on an H100). The fix is
// withheld where bf16 could break what fp16 ran: FFTs, custom kernels,
// or a project that hands tensors to NumPy.
func checkLightningFP16(p *Pass, v Verdict) {
	lv := lightningVersion(p)
	if !lv.AtLeast(1, 5) || isTestModule(p) || spikingjellyCupy(p) {
		return
	}
	value := `"bf16-mixed"`
	if !lv.AtLeast(2, 0) {
		value = `"bf16"`
	}
	for _, call := range gpuTrainers(p, lv) {
		prec := rewrite.KeywordValue(call, "precision")
		if prec == nil {
			continue
		}
		if s, ok := rewrite.StringValue(prec); !(ok && (s == "16" || s == "16-mixed")) && !(prec.Type == "integer" && prec.Text() == "16") {
			continue
		}
		msg := "this Lightning Trainer trains in fp16 with loss scaling (precision=" + prec.Text() + "): bf16 is native on " + v.Assumption + " and needs no scaler; pass precision=" + value
		if v.Hint {
			msg = "this Lightning Trainer trains in fp16 with loss scaling (precision=" + prec.Text() + "): on GPUs with compute capability >= 8.0 bf16 needs no scaler; pass precision=" + value + " (" + v.Assumption + ")"
		}
		fix := Fix(rewrite.Unsafe, "Pass precision="+value, rewrite.Edit{Start: prec.Start, End: prec.End, New: value})
		switch {
		case p.Model.ProjectSpells(torchFFTSpellings...):
			msg += "; but this project calls torch.fft, which has no bf16 kernels: keep fp16 or add .float() before each FFT first"
			fix = nil
		case customKernels(p):
			msg += customKernelsWhy + ": check that they do before switching, or keep fp16"
			fix = nil
		case p.Model.ProjectSpells(".numpy()"):
			msg += "; the project hands tensors to NumPy (.numpy()), which fp16 allows and bf16 refuses (TypeError) unless they are .float() first: check those, then switch"
			fix = nil
		}
		p.Report(prec, msg, v.Downgrade(fix))
	}
}

// explicitHalf returns a conversion to fp16 the file writes outside its
// fp16 autocast calls: a `.half()` call, or torch.float16 / torch.half
// (`.to(torch.float16)`, `dtype=torch.half`). Nil when there is none.
func explicitHalf(p *Pass, fp16 []autocastCall) *rewrite.Node {
	for _, call := range p.File.MethodCalls("half") {
		if len(rewrite.PositionalArgs(call)) == 0 {
			return call
		}
	}
	for _, attr := range p.File.OfType("attribute") {
		if q := p.Model.QualifiedName(attr); q != "torch.float16" && q != "torch.half" {
			continue
		}
		inAutocast := false
		for _, ac := range fp16 {
			inAutocast = inAutocast || ac.Call.Contains(attr)
		}
		if !inAutocast {
			return attr
		}
	}
	return nil
}

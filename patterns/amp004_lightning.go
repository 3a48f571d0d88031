package patterns

import (
	"regexp"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// AMP004 for code whose training loop PyTorch Lightning runs: the loop is
// Lightning's, so the autocast switch is the Trainer's `precision`
// argument, not a `with torch.autocast(...)` block in the file.

// lightningTrainers are the qualified names of Lightning's Trainer.
var lightningTrainers = map[string]bool{
	"pytorch_lightning.Trainer":                 true,
	"pytorch_lightning.trainer.Trainer":         true,
	"pytorch_lightning.trainer.trainer.Trainer": true,
	"lightning.Trainer":                         true,
	"lightning.pytorch.Trainer":                 true,
	"lightning.pytorch.trainer.Trainer":         true,
	"lightning.pytorch.trainer.trainer.Trainer": true,
}

// lightningVersion is the Lightning release the project is written for:
// its pin, or where nothing pins one, 1.9 when the code spells what
// Lightning 2.0 removed: the `*_epoch_end` hooks, or a Trainer given
// `gpus=` (blind sample S39AI's cloud segmenter, told to pass the 2.x
// spelling "bf16-mixed", which 1.x rejects).
func lightningVersion(p *Pass) Version {
	lv := p.Env.Versions.Lightning
	if lv != DefaultVersions.Lightning {
		return lv
	}
	for _, src := range p.Model.ProjectSourcesSpelling("validation_epoch_end", "training_epoch_end", "test_epoch_end") {
		if lightningOneHook.Match(src) {
			return Version{1, 9}
		}
	}
	for _, call := range p.File.OfType("call") {
		if lightningTrainers[p.Model.CalleeName(call)] && rewrite.KeywordValue(call, "gpus") != nil {
			return Version{1, 9}
		}
	}
	return lv
}

// lightningOneHook matches a definition of a hook Lightning 2.0 removed
// (not 2.x's on_validation_epoch_end, which contains its name).
var lightningOneHook = regexp.MustCompile(`\bdef (?:training|validation|test)_epoch_end\(`)

// usesLightning reports a file that imports PyTorch Lightning.
func usesLightning(p *Pass) bool {
	return p.Model.Imports("lightning") || p.Model.Imports("pytorch_lightning")
}

// checkLightningPrecision reports each Lightning Trainer built without a
// precision (fp32 training: Lightning's default is "32-true") that this
// file fits a model with (fitsWith), on a GPU: its accelerator is "gpu", "cuda" or "auto" (Lightning 2's
// default, the GPU when there is one), or it is given `gpus=`. The fix
// passes precision="bf16-mixed" (Lightning 2; "bf16" in 1.5 to 1.9), or
// the fp16 equivalents below compute capability 8.0; Lightning's fp16
// mode scales the loss itself. The fix is a hint: gpuopt does not size
// the LightningModule's network, and narrow ones run slower under
// autocast (AMP004's "neither" case).
func checkLightningPrecision(p *Pass, v Verdict) {
	lv := lightningVersion(p)
	if !lv.AtLeast(1, 5) || !p.Env.Versions.Torch.AtLeast(1, 10) {
		return // bf16 arrived in Lightning 1.5, on torch 1.10
	}
	if p.File.SpellsAny([]string{"half", "bfloat16", "float16"}) || fp16Weights(p) {
		return // precision chosen by hand
	}
	if isTestModule(p) {
		return // a test's Trainer runs a few steps to check the code
	}
	bf16 := v.Hint || p.Env.GPU.AtLeast(8, 0)
	value := `"bf16-mixed"`
	switch {
	case !lv.AtLeast(2, 0) && bf16:
		value = `"bf16"`
	case !lv.AtLeast(2, 0):
		value = "16"
	case !bf16:
		value = `"16-mixed"`
	}
	for _, call := range gpuTrainers(p, lv) {
		if _, _, found := callKeyword(p, call, "precision"); found || rewrite.HasSplat(call) && !splatsKnown(p, call) {
			continue
		}
		if evaluatesOnly(p, call) {
			continue // `trainer.test(model, ...)` alone: nothing trains (blind sample S37Y's Light_CVGL)
		}
		msg := "this Lightning Trainer trains in fp32 (no precision=): pass precision=" + value +
			", which runs each training step's forward and loss under " + map[bool]string{true: "bf16", false: "fp16"}[bf16] +
			" autocast; the gain depends on the LightningModule's size, which gpuopt does not read: a transformer of d 1024 ran 5.0× on an H100, networks of a few hundred channels 0.65–1.0×, so measure it"
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.AppendItem(call.ChildByField("arguments"), "precision="+value); ok && !rewrite.HasSplat(call) {
			// A hint, as AMP004's fix is where the network's size is
			// unknown: the editor offers it, `fix` leaves it to the user.
			fix = Fix(rewrite.Hint, "Pass precision="+value, e)
		}
		p.Report(call, msg, fix)
	}
}

// gpuTrainers returns the file's Lightning Trainer calls, with keyword
// arguments only, that fit a model (fitsWith) on the GPU (trainerOnGPU):
// the Trainers AMP003 and AMP004 advise on.
func gpuTrainers(p *Pass, lv Version) []*rewrite.Node {
	var out []*rewrite.Node
	for _, call := range p.File.OfType("call") {
		if lightningTrainers[p.Model.CalleeName(call)] && len(rewrite.PositionalArgs(call)) == 0 && trainerOnGPU(p, call, lv) && fitsWith(p, call) {
			out = append(out, call)
		}
	}
	return out
}

// fitsWith reports a Trainer that this file trains with: `.fit(...)` on
// the call itself or on the name it is assigned to. A Trainer that only
// tests or predicts (`trainer.predict(model, loader)`) trains nothing.
func fitsWith(p *Pass, call *rewrite.Node) bool {
	fit := func(n *rewrite.Node) bool {
		a := n.Parent
		return a != nil && a.Type == "attribute" && a.ChildByField("object") == n &&
			a.ChildByField("attribute").Text() == "fit" && a.Parent != nil && a.Parent.Type == "call"
	}
	if fit(call) {
		return true
	}
	st := call.Parent
	if st == nil || st.Type != "assignment" || st.ChildByField("right") != call || !st.ChildByField("left").Is("identifier") {
		return false
	}
	for _, b := range p.Model.Bindings(st.ChildByField("left")) {
		if b.Value != call {
			continue
		}
		for _, u := range b.Uses {
			if fit(u) {
				return true
			}
		}
	}
	return false
}

// trainerOnGPU reports a Lightning Trainer call that trains on a GPU: an
// accelerator of "gpu", "cuda" or "auto" (or none, from Lightning 2 on,
// where "auto" is the default), or a `gpus=` list, string or count other
// than 0 or None, known from a literal, a constant or a flag's default
// (Lightning 1). An accelerator or a count gpuopt cannot read (a flag
// without a default) does not count.
func trainerOnGPU(p *Pass, call *rewrite.Node, lv Version) bool {
	if g, _, found := callKeyword(p, call, "gpus"); found {
		if g == nil || falseByConstruction(p.Model, g) {
			return false
		}
		if g.Is("list", "string") {
			return true // gpus=[0], gpus="0,1"
		}
		// A count: a literal, a constant or a flag's default (`--gpus`
		// defaulting to 0 trains on the CPU unless asked).
		n, ok := intBound(&widthFrame{m: p.Model, walk: &widthWalk{}}, g, 0)
		return ok && n != 0
	}
	acc, _, found := callKeyword(p, call, "accelerator")
	if !found {
		return lv.AtLeast(2, 0)
	}
	s, ok := rewrite.StringValue(acc)
	if !ok {
		return false
	}
	switch strings.ToLower(s) {
	case "gpu", "cuda", "auto":
		return true
	}
	return false
}

// evaluatesOnly reports a Trainer only used to test, validate or
// predict (onlyCallsMethods).
func evaluatesOnly(p *Pass, call *rewrite.Node) bool {
	return onlyCallsMethods(p, call, func(method string) bool { return method == "test" || method == "validate" || method == "predict" })
}

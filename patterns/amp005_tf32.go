package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// TF32Matmul is AMP005.
var TF32Matmul = &Rule{
	Code:      "AMP005",
	Name:      "enable-tf32",
	Title:     `Enable TF32 matmuls: torch.set_float32_matmul_precision("high")`,
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	// No Names gate: a loop may train through a function of a sibling module
	// (train_one_epoch imported from engine.py) without spelling backward.
	SkipTestModules: true,
	Check:           checkTF32,
}

func init() { Register(TF32Matmul) }

func checkTF32(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(1, 12) {
		// torch.set_float32_matmul_precision arrived in 1.12, and from 1.7
		// to 1.11 TF32 matmuls were on by default.
		return
	}
	v := p.Env.Gate(Need{MinCompute: 80})
	if v.Silent() || !p.Model.IsTrainingScript() || !p.Model.UsesCUDA() {
		return
	}
	if p.File.SpellsAny([]string{"set_float32_matmul_precision", "allow_tf32", "fp32_precision"}) {
		return
	}
	// Mixed precision already: under autocast the matmuls and convolutions
	// run in fp16/bf16 and TF32 has nothing left to speed up. Autocast
	// through a project's wrapper (YOLOv5's smart_amp_autocast) counts.
	if mentionsAutocast(p) || p.Model.ImportsProjectModule(func(d *rewrite.ProjectDef) bool { return d.Autocast }) {
		return // (also in the project module whose step this script calls)
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok || trainsForOtherModules(p, start) {
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

// trainsForOtherModules reports a helper module (engine.py) whose training
// loop at offset at is in a module-level function that a training loop of
// another project module calls on CUDA (`for epoch ...:
// engine.train_fn(...)`), and that has no `__main__` block of its own: the
// setting is process-wide and belongs in that script, which gets its own
// finding. A helper called once, outside any loop, keeps the finding.
func trainsForOtherModules(p *Pass, at int) bool {
	if hasMainGuard(p) {
		return false
	}
	n := p.File.NodeAt(at, at)
	for n != nil && n.Type != "function_definition" {
		n = n.Parent
	}
	for n != nil && n.Parent != nil && n.Parent.Type != "module" && n.Parent.Type != "decorated_definition" {
		n = n.Parent.Ancestor("function_definition")
	}
	if n == nil {
		return false
	}
	for _, fc := range p.Model.ForeignCallSites(n) {
		loops := fc.Model.EnclosingLoops(fc.Call)
		if len(loops) > 0 && fc.Model.UsesCUDA() && fc.Model.Loop(loops[0]).Trains() {
			return true
		}
	}
	return false
}

package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

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
	if mentionsAutocast(p) || apexMixedPrecision(p) || p.Model.ImportsProjectModule(func(d *rewrite.ProjectDef) bool { return d.Autocast }) {
		return // (also in the project module whose step this script calls)
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok || trainsForOtherModules(p, start) || convolutionsOnly(p) {
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

// matmulLayers are the layers and calls whose work is a matrix multiply,
// which set_float32_matmul_precision governs.
var matmulLayers = map[string]bool{
	"torch.nn.Linear": true, "torch.nn.LazyLinear": true, "torch.nn.Bilinear": true,
	"torch.nn.LSTM": true, "torch.nn.GRU": true, "torch.nn.RNN": true, "torch.nn.LSTMCell": true, "torch.nn.GRUCell": true,
	"torch.nn.MultiheadAttention": true, "torch.nn.Transformer": true, "torch.nn.TransformerEncoderLayer": true,
	"torch.nn.TransformerDecoderLayer": true, "torch.matmul": true, "torch.mm": true, "torch.bmm": true,
	"torch.einsum": true, "torch.nn.functional.linear": true, "torch.baddbmm": true, "torch.addmm": true,
}

// convolutionsOnly reports a file whose networks, defined here, are made of
// convolutions with no matrix multiply anywhere (a DCGAN, a plain U-Net):
// cuDNN already runs fp32 convolutions in TF32 by default
// (torch.backends.cudnn.allow_tf32), so the matmul setting has nothing to
// speed up. Networks of another project module are read from its
// summary; networks from a library are not known, and count as having
// matmuls.
func convolutionsOnly(p *Pass) bool {
	if p.Model.Imports("torchvision.models") || p.Model.Imports("timm") || p.Model.Imports("transformers") ||
		p.File.Spells("from_pretrained") {
		return false
	}
	local := len(p.File.OfType("class_definition")) > 0 // networks defined here
	convs := false
	for _, call := range p.File.OfType("call") {
		q := p.Model.CalleeName(call)
		if matmulLayers[q] {
			return false
		}
		if strings.HasPrefix(q, "torch.nn.Conv") && local {
			convs = true
		}
		// A network class imported from the project (a class with no
		// base, or one of nn.Module's): its summary's layers, those of the
		// blocks it builds included.
		if d := p.Model.ImportedDef(call.ChildByField("function")); d != nil && d.Class && !slices.ContainsFunc(d.Bases, func(b string) bool { return !strings.Contains(b, "Module") }) {
			if !convOnlyClass(d) {
				return false
			}
			convs = true
		}
	}
	for _, op := range p.File.OfType("binary_operator") {
		if o := op.ChildByField("operator"); o != nil && o.Text() == "@" {
			return false
		}
	}
	return convs
}

// convOnlyClass reports a project network class whose layers (its own and
// those of the module's blocks it builds) include convolutions and no
// matrix multiply, nor a model from a library.
func convOnlyClass(d *rewrite.ProjectDef) bool {
	convs := false
	for _, q := range d.Calls {
		switch {
		case matmulLayers[q], strings.HasPrefix(q, "torchvision.models"), strings.HasPrefix(q, "timm"), strings.HasPrefix(q, "transformers"):
			return false
		case strings.HasPrefix(q, "torch.nn.Conv"):
			convs = true
		}
	}
	return convs
}

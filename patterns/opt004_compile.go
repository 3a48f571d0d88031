package patterns

import "github.com/gpuopt/gpuopt/rewrite"

// CompileModel is OPT004.
var CompileModel = &Rule{
	Code:      "OPT004",
	Name:      "torch-compile",
	Title:     "Consider torch.compile for the trained model (measure first)",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"backward", "step"}, // the model must be called in a training loop (.backward() or optimizer .step())
	Check:     checkCompileModel,
}

func init() { Register(CompileModel) }

func checkCompileModel(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(2, 0) || !p.Model.UsesCUDA() || p.File.Spells("compile") {
		return
	}
	for _, call := range torchCalls(p) {
		fn := call.ChildByField("function")
		if fn.Type != "identifier" || !p.Model.IsModule(fn) {
			continue
		}
		loops := p.Model.EnclosingLoops(call)
		if len(loops) == 0 || !p.Model.Loop(loops[0]).Trains() {
			continue
		}
		b := p.Model.Binding(fn)
		if b == nil || b.Kind != rewrite.AssignBinding || b.Value == nil {
			continue
		}
		stmt := rewrite.Statement(b.Stmt)
		var fix *rewrite.Fix
		if name, ok := p.Model.LocalName(stmt, "torch.compile"); ok {
			if e, ok := rewrite.InsertAfterEdit(stmt, fn.Text()+" = "+name+"("+fn.Text()+")"); ok {
				fix = Fix(rewrite.Hint, "Compile the model with torch.compile", e)
			}
		}
		p.Report(b.Value, "this model is trained without torch.compile: it can fuse kernels, but measure it (a small MLP ran 0.84× on an H100, after 6.4 s of compilation)", fix)
		return
	}
}

package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// DebugModeInTraining is OPT006.
var DebugModeInTraining = &Rule{
	Code:            "OPT006",
	Name:            "debug-mode-in-training",
	Title:           "Turn off autograd anomaly detection and CUDA_LAUNCH_BLOCKING for training runs",
	Fix:             rewrite.Unsafe,
	Severity:        rewrite.Warning,
	Libraries:       []string{"torch", "pytorch_lightning", "lightning"},
	Names:           []string{"set_detect_anomaly", "detect_anomaly", "environ"},
	SkipTestModules: true, // tests turn anomaly mode on to find the op that made a NaN
	Check:           checkDebugModeInTraining,
}

func init() { Register(DebugModeInTraining) }

// anomalyMessage is OPT006's message for autograd anomaly detection,
// with the measurement (.notes/opt006-debug-modes-h200.txt).
const anomalyMessage = "autograd anomaly detection stays on for the whole run: every forward op records a stack trace and every backward op checks its output for NaN (training steps measured 1.3-3.1x slower on an H200: MLP, CNN, transformer, LSTM); turn it on only while hunting a NaN, behind a debug flag"

// launchBlockingMessage is OPT006's message for CUDA_LAUNCH_BLOCKING=1.
const launchBlockingMessage = "CUDA_LAUNCH_BLOCKING=1 makes every CUDA launch wait until the kernel finishes, so the CPU can never run ahead of the GPU (training steps measured 1.3-2.1x slower on an H200: MLP, CNN, transformer, LSTM); set it in the shell only while locating a CUDA error"

func checkDebugModeInTraining(p *Pass) {
	checkLaunchBlocking(p)
	if !trainsInFile(p) {
		return
	}
	for _, call := range p.Model.CallsTo("torch.autograd.set_detect_anomaly", "torch.autograd.anomaly_mode.set_detect_anomaly") {
		if arg := anomalyModeArg(call); arg == nil || arg.Text() != "True" || debugOnly(p, call) {
			continue
		}
		if with := withItemOf(call); with != nil {
			if wrapsTraining(p, with) {
				p.Report(call, anomalyMessage, nil) // no fix: removing a with means re-indenting its body
			}
			continue
		}
		var fix *rewrite.Fix
		if stmt := call.Parent; stmt != nil && stmt.Type == "expression_statement" {
			if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
				fix = Fix(rewrite.Unsafe, "Remove torch.autograd.set_detect_anomaly(True)", e)
			}
		}
		p.Report(call, anomalyMessage, fix)
	}
	for _, call := range p.Model.CallsTo("torch.autograd.detect_anomaly", "torch.autograd.anomaly_mode.detect_anomaly") {
		with := withItemOf(call)
		if with == nil || debugOnly(p, call) || !wrapsTraining(p, with) {
			continue
		}
		p.Report(call, anomalyMessage, nil)
	}
	for _, call := range p.Model.CallsTo(lightningTrainerNames()...) {
		value := rewrite.KeywordValue(call, "detect_anomaly")
		if value == nil || value.Text() != "True" || debugOnly(p, call) {
			continue
		}
		p.Report(value.Parent, "Trainer(detect_anomaly=True): "+anomalyMessage,
			Fix(rewrite.Unsafe, "Pass detect_anomaly=False", rewrite.Edit{Start: value.Start, End: value.End, New: "False"}))
	}
}

// checkLaunchBlocking reports CUDA_LAUNCH_BLOCKING=1 set in a file that
// uses torch: it slows every CUDA launch of the process, training or not
// (blind sample S32A's seed_torch sets it beside the seeds).
func checkLaunchBlocking(p *Pass) {
	for _, stmt := range launchBlockingSettings(p) {
		if debugOnly(p, stmt) {
			continue
		}
		var fix *rewrite.Fix
		if e, ok := rewrite.RemoveStatementEdit(stmt); ok {
			fix = Fix(rewrite.Unsafe, "Remove the CUDA_LAUNCH_BLOCKING setting", e)
		}
		p.Report(stmt, launchBlockingMessage, fix)
	}
}

// lightningTrainerNames lists lightningTrainers' qualified names.
func lightningTrainerNames() []string {
	names := make([]string, 0, len(lightningTrainers))
	for q := range lightningTrainers {
		names = append(names, q)
	}
	return names
}

// anomalyModeArg is set_detect_anomaly's mode argument: the first
// positional one or mode=.
func anomalyModeArg(call *rewrite.Node) *rewrite.Node {
	if args := rewrite.PositionalArgs(call); len(args) > 0 {
		return args[0]
	}
	return rewrite.KeywordValue(call, "mode")
}

// withItemOf is the with statement whose item call is, nil when call is
// not one (`with torch.autograd.detect_anomaly():`).
func withItemOf(call *rewrite.Node) *rewrite.Node {
	item := call.Parent
	if item == nil || item.Type != "with_item" {
		return nil
	}
	return item.Ancestor("with_statement")
}

// wrapsTraining reports a with statement inside a training loop, or one
// whose body holds a training step: a backward call or a loop that trains.
func wrapsTraining(p *Pass, with *rewrite.Node) bool {
	for _, l := range p.Model.EnclosingLoops(with) {
		if p.Model.Loop(l).Trains() {
			return true
		}
	}
	body := with.ChildByField("body")
	if body == nil {
		return false
	}
	for _, b := range p.File.Identifiers("backward") {
		if body.Contains(b) {
			return true
		}
	}
	for _, l := range p.Model.TrainingLoops() {
		if body.Contains(l) {
			return true
		}
	}
	return false
}

// trainsInFile reports a file that trains a network, where anomaly
// detection costs on every step: a training loop, a backward call, a
// Lightning module (training_step), or a call of something named fit or
// train* (`trainer.train()`, `solver.train_and_eval()`: an entry script
// whose loop lives in a trainer class of another module, blind samples
// of text-to-motion and Multimodal-Infomax).
func trainsInFile(p *Pass) bool {
	if p.Model.IsTrainingScript() {
		return true
	}
	for _, name := range []string{"backward", "manual_backward", "training_step"} {
		if len(p.File.Identifiers(name)) > 0 {
			return true
		}
	}
	for _, call := range p.File.OfType("call") {
		fn := call.ChildByField("function")
		if fn != nil && fn.Type == "attribute" {
			fn = fn.ChildByField("attribute")
		}
		if fn != nil && fn.Type == "identifier" && (fn.Text() == "fit" || strings.HasPrefix(fn.Text(), "train")) {
			return true
		}
	}
	return false
}

// debugOnly reports code that runs only on some runs: under an `if`
// (`if args.debug:`) other than the `__main__` guard, in a conditional
// expression, or in a function nothing in the project calls.
func debugOnly(p *Pass, n *rewrite.Node) bool {
	for c := n.Parent; c != nil; c = c.Parent {
		switch c.Type {
		case "if_statement":
			if !isMainGuard(c) {
				return true
			}
		case "elif_clause", "else_clause", "conditional_expression", "except_clause":
			return true
		case "function_definition", "class_definition":
			if p.Model.NeverCalled(c) {
				return true
			}
		}
	}
	return false
}

// launchBlockingSettings are the statements that set CUDA_LAUNCH_BLOCKING
// to "1" in os.environ: `os.environ["CUDA_LAUNCH_BLOCKING"] = "1"` and
// `os.environ.setdefault("CUDA_LAUNCH_BLOCKING", "1")`.
func launchBlockingSettings(p *Pass) []*rewrite.Node {
	var out []*rewrite.Node
	for _, id := range p.File.Identifiers("environ") {
		env := id.Parent
		if env == nil || env.Type != "attribute" || env.ChildByField("attribute") != id || p.Model.QualifiedName(env) != "os.environ" {
			continue
		}
		use := env.Parent
		var key, value, stmt *rewrite.Node
		switch {
		case use != nil && use.Type == "subscript" && use.ChildByField("value") == env:
			asg := use.Parent
			if asg == nil || asg.Type != "assignment" || asg.ChildByField("left") != use {
				continue
			}
			key, value, stmt = use.ChildByField("subscript"), asg.ChildByField("right"), asg.Parent
		case use != nil && use.Type == "attribute" && use.ChildByField("attribute").Text() == "setdefault" && use.Parent != nil && use.Parent.Type == "call":
			args := rewrite.PositionalArgs(use.Parent)
			if len(args) != 2 {
				continue
			}
			key, value, stmt = args[0], args[1], use.Parent.Parent
		default:
			continue
		}
		if stmt == nil || stmt.Type != "expression_statement" {
			continue
		}
		if k, ok := rewrite.StringValue(key); !ok || k != "CUDA_LAUNCH_BLOCKING" {
			continue
		}
		if v, ok := rewrite.StringValue(value); !ok || v != "1" {
			continue
		}
		out = append(out, stmt)
	}
	return out
}

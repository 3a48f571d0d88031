package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// PerStepLogging is SYNC005.
var PerStepLogging = &Rule{
	Code:      "SYNC005",
	Name:      "per-step-logging",
	Title:     "Log tensor values every N steps, not every step",
	Fix:       rewrite.Hint,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"print", "log", "debug", "info", "warning", "warn", "error", "critical", "exception", "success", "trace", "add_scalar", "add_scalars", "set_postfix", "set_postfix_str", "set_description", "write"}, // the last name of every logging call sync5LoggingCall accepts
	Check:     checkPerStepLogging,
}

func init() { Register(PerStepLogging) }

var sync5LogLevels = map[string]bool{
	"debug": true, "info": true, "warning": true, "warn": true, "error": true,
	"critical": true, "exception": true, "log": true, "success": true, "trace": true,
}

func checkPerStepLogging(p *Pass) {
	m := p.Model
	if !placedOnCUDA(p) {
		return
	}
	// One finding per step: the first logging read of a loop names the
	// step's other reads (otherStepSyncLines) and its other logs, which
	// after it wait for nothing new (blind sample S36E's Pix2Vox, three
	// findings for three log lines of one step).
	type logRead struct {
		call *rewrite.Node
		msg  string
		more []string // the lines of the step's later logs
	}
	var found []*logRead
	byLoop := map[*rewrite.Node]*logRead{}
	for _, call := range p.File.OfType("call") {
		if !m.InLoop(call) {
			continue // most calls: no step to repeat them (the cheapest test first)
		}
		what := sync5LoggingCall(m, call)
		if what == "" || rewrite.HasSplat(call) {
			continue
		}
		stmt, loop := perStepCallStatement(p, call)
		if stmt == nil || sync5HoldsStepLoop(m, loop) {
			continue
		}
		if !m.Loop(loop).Trains() && readsOutputsBack(m, loop) {
			// An evaluation loop that copies its outputs to the host on
			// every step (CAMs drawn per sample, predictions kept as
			// arrays): it waits for the GPU there by design, and moving
			// the log read gains nothing (blind sample S24D's TS-CAM: six
			// findings judged false).
			continue
		}
		read := sync5TensorRead(p, call.ChildByField("arguments"))
		if read == nil {
			continue
		}
		if first := byLoop[loop]; first != nil {
			if l := p.LineOf(call); !slices.Contains(first.more, l) {
				first.more = append(first.more, l)
			}
			continue
		}
		msg := what + " reads " + sync5Shorten(read.Text()) + " on every step, which waits for the GPU to finish the step: log every N steps (" + sync5Guard(loop) + ")"
		if others := otherStepSyncLines(p, loop, call); len(others) > 0 {
			if !m.Loop(loop).Trains() && !hostReadsOnly(p, loop, call) {
				// An evaluation step that reads other tensors to the host
				// as well (a metric's .item() beside the logged loss): it
				// waits there anyway, and blind samples S21P, S27D and
				// S30R judged the log's finding alone negligible.
				continue
			}
			// Moving this read alone gains nothing while the step waits
			// elsewhere too (blind sample NN: a U-Net step that also
			// summed loss.item() and set a progress bar).
			msg += "; the step also waits at line " + strings.Join(others, ", ") + ": move those reads off the per-step path too, or this change alone gains nothing"
		}
		byLoop[loop] = &logRead{call: call, msg: msg}
		found = append(found, byLoop[loop])
	}
	for _, f := range found {
		if len(f.more) > 0 {
			f.msg += "; the step logs tensors at line " + strings.Join(f.more, ", ") + " too: guard them together"
		}
		p.Report(f.call, f.msg, nil)
	}
}

// hostReadsOnly reports a loop whose other per-step reads
// (otherStepSyncReads) all read an element of the loader's batch before
// it is moved (`count[0].item()`): they wait for nothing.
func hostReadsOnly(p *Pass, loop, call *rewrite.Node) bool {
	for _, n := range otherStepSyncReads(p, loop, call) {
		root := n.ChildByField("function").ChildByField("object")
		for root != nil && root.Is("subscript", "attribute") {
			if root.Type == "subscript" {
				root = root.ChildByField("value")
			} else {
				root = root.ChildByField("object")
			}
		}
		if root == nil || root.Type != "identifier" || !loaderBatchAt(p, root, n) {
			return false
		}
	}
	return true
}

// otherStepSyncLines returns the lines of the loop's other per-step reads
// of a tensor to the host (otherStepSyncReads), four at most.
func otherStepSyncLines(p *Pass, loop, call *rewrite.Node) []string {
	var lines []string
	for _, n := range otherStepSyncReads(p, loop, call) {
		if l := p.LineOf(n); !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
		if len(lines) == 4 {
			break
		}
	}
	return lines
}

// otherStepSyncReads returns the loop's per-step reads of a tensor to the
// host (`.item()`, `.tolist()`, `.cpu()`, `.numpy()`, not under logging
// every few steps) outside call.
func otherStepSyncReads(p *Pass, loop, call *rewrite.Node) []*rewrite.Node {
	var reads []*rewrite.Node
	walkLoopBodyUntil(p.Model, loop, func(n *rewrite.Node) bool {
		if n.Type != "call" || call.Contains(n) || everyFewSteps(p.Model, loop, n) {
			return true
		}
		fn := n.ChildByField("function")
		if fn == nil || fn.Type != "attribute" {
			return true
		}
		switch fn.ChildByField("attribute").Text() {
		case "item", "tolist", "cpu", "numpy":
			reads = append(reads, n)
		}
		return true
	})
	return reads
}

// sync5LoggingCall names the kind of logging call, or "" when call is none:
// print, the logging module's functions, a logging.getLogger() or loguru
// logger's methods, wandb.log and TensorBoard's add_scalar(s).
func sync5LoggingCall(m *rewrite.Model, call *rewrite.Node) string {
	fn := call.ChildByField("function")
	if fn == nil {
		return ""
	}
	name := func() string { return strings.Join(strings.Fields(fn.Text()), "") + "(...)" }
	q := m.CalleeName(call)
	switch {
	case q == "print", q == "wandb.log":
		return name()
	case strings.HasPrefix(q, "logging.") && strings.Count(q, ".") == 1 && sync5LogLevels[q[len("logging."):]]:
		return name()
	case strings.HasPrefix(q, "loguru.logger.") && sync5LogLevels[q[len("loguru.logger."):]]:
		return name()
	}
	if fn.Type != "attribute" {
		return ""
	}
	method := fn.ChildByField("attribute").Text()
	obj := fn.ChildByField("object")
	ctor := obj
	if obj.Type == "identifier" {
		ctor = m.ValueOf(obj)
		if ctor == nil {
			ctor = withValue(m, obj) // `with tqdm(...) as pbar:`
		}
		if ctor == nil {
			// A parameter: the writer a call site of the function passes
			// (`train(..., writer)` after `writer = SummaryWriter()`:
			// SimCLR, blind sample XX), when every origin but None is
			// one such call.
			for _, o := range m.Origins(obj) {
				if o.Expr != nil && o.Expr.Type == "none" {
					continue // `writer = None` unless this process logs
				}
				if o.Expr == nil || o.Expr.Type != "call" || o.Model != nil || ctor != nil && m.CalleeName(ctor) != m.CalleeName(o.Expr) {
					ctor = nil
					break
				}
				ctor = o.Expr
			}
		}
	}
	if ctor == nil || ctor.Type != "call" {
		return ""
	}
	switch cq := m.CalleeName(ctor); {
	case isTqdm(cq) && (method == "set_postfix" || method == "set_postfix_str" || method == "set_description" || method == "write"):
		return name() // a progress bar's text, redrawn every step
	case cq == "logging.getLogger" && sync5LogLevels[method] && method != "success" && method != "trace":
		return name()
	case cq == "wandb.init" && method == "log":
		return name()
	case (strings.HasSuffix(cq, ".SummaryWriter") && (strings.HasPrefix(cq, "torch.utils.tensorboard") || strings.HasPrefix(cq, "tensorboardX"))) &&
		(method == "add_scalar" || method == "add_scalars"):
		return name()
	}
	return ""
}

// isTqdm reports the tqdm progress-bar class under any of its modules.
func isTqdm(q string) bool {
	return q == "tqdm" || strings.HasPrefix(q, "tqdm.") && strings.HasSuffix(q, ".tqdm") || q == "tqdm.trange" || strings.HasSuffix(q, ".trange") && strings.HasPrefix(q, "tqdm")
}

// withValue returns the call a name is bound to by `with <call> as name:`
// when that is its only binding, or nil.
func withValue(m *rewrite.Model, ident *rewrite.Node) *rewrite.Node {
	b := m.Binding(ident)
	if b == nil || b.Ident == nil {
		return nil
	}
	item := b.Ident.Parent
	if item == nil || item.Type != "as_pattern_target" {
		return nil
	}
	if pat := item.Parent; pat != nil && pat.Type == "as_pattern" {
		if v := pat.NamedChildren(); len(v) > 0 && v[0].Type == "call" {
			return v[0]
		}
	}
	return nil
}

// sync5HoldsStepLoop reports whether loop calls a function of this file
// that runs a hot loop itself: loop is then an epoch loop and a log in it
// runs once per epoch.
func sync5HoldsStepLoop(m *rewrite.Model, loop *rewrite.Node) bool {
	found := false
	walkLoopBody(m, loop, func(n *rewrite.Node) {
		if found || n.Type != "call" {
			return
		}
		def := m.FunctionDef(n)
		if def == nil {
			return
		}
		def.ChildByField("body").Walk(func(c *rewrite.Node) bool {
			if rewrite.IsLoop(c) && m.Loop(c).Hot() {
				found = true
			}
			return !found
		})
	})
	return found
}

// hostBatchRead reports a read of the loader's batch as it came, still on
// the host (`count[0].item()` of an unmoved batch element): it waits for
// nothing (blind sample S14I's crowd-counting test script).
func hostBatchRead(p *Pass, read *rewrite.Node) bool {
	if fn := read.ChildByField("function"); read.Type == "call" && fn != nil && fn.Type == "attribute" {
		read = fn.ChildByField("object")
	}
	root := rewrite.RootName(read)
	return root != nil && loaderBatchAt(p, root, read)
}

// sync5TensorRead returns the first expression in args that reads a
// tensor's value on the host: `.item()` / `.tolist()` (unless called on an
// evident NumPy or CuPy array, or the loader's batch still on the host),
// `float(t)` / `int(t)` / `str(t)` of a tensor,
// or a tensor formatted into the message (an argument, an f-string
// interpolation, a `%` operand, a dict value, a str.format argument).
func sync5TensorRead(p *Pass, args *rewrite.Node) *rewrite.Node {
	m := p.Model
	var found *rewrite.Node
	args.Walk(func(n *rewrite.Node) bool {
		if found != nil || n.Is("lambda", "function_definition") {
			return false
		}
		if n.Type == "call" {
			fn := n.ChildByField("function")
			if fn.Type == "attribute" {
				switch fn.ChildByField("attribute").Text() {
				case "item", "tolist":
					recv := fn.ChildByField("object")
					if len(n.ChildByField("arguments").NamedChildren()) == 0 && !(m.IsArrayExpr(recv) && !m.IsTensorExpr(recv)) && !hostBatchRead(p, n) {
						found = n
						return false
					}
				}
			}
		}
		if n.Type == "binary_operator" && n.ChildByField("left").Is("string", "concatenated_string") {
			return true // "..." % value: look at the value
		}
		if sync5FormattedPosition(m, n, args) && m.IsTensorExpr(n) {
			found = n
			return false
		}
		return true
	})
	return found
}

// sync5FormattedPosition reports whether n sits where its value is turned
// into text or a number: an argument of the logging call or of str / repr /
// float / int / format, an f-string interpolation, an operand of `%`, or
// an element or value of a tuple / list / dict there.
func sync5FormattedPosition(m *rewrite.Model, n, args *rewrite.Node) bool {
	par := n.Parent
	for par != nil && par.Is("tuple", "list", "parenthesized_expression", "pair", "keyword_argument") {
		if par.Type == "pair" && par.ChildByField("value") != n {
			return false
		}
		if par.Type == "keyword_argument" && par.ChildByField("value") != n {
			return false
		}
		n, par = par, par.Parent
	}
	switch {
	case par == nil:
		return false
	case par.Type == "interpolation":
		return true
	case par == args:
		return true
	case par.Type == "argument_list":
		call := par.Parent
		switch m.CalleeName(call) {
		case "str", "repr", "float", "int", "format":
			return true
		}
		fn := call.ChildByField("function")
		return fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "format"
	case par.Type == "binary_operator":
		op := par.ChildByField("operator")
		return op != nil && op.Text() == "%" && par.ChildByField("right") == n
	case par.Type == "dictionary":
		return true
	}
	return false
}

// sync5Guard suggests a step guard for loop, using its enumerate index
// when it has one.
func sync5Guard(loop *rewrite.Node) string {
	name := "step"
	if loop.Type == "for_statement" {
		left, right := loop.ChildByField("left"), loop.ChildByField("right")
		if right != nil && right.Type == "call" && right.ChildByField("function").Text() == "enumerate" && left != nil {
			if nc := left.NamedChildren(); left.Is("pattern_list", "tuple_pattern") && len(nc) > 0 && nc[0].Type == "identifier" {
				name = nc[0].Text()
			}
		}
	}
	return "`if " + name + " % 100 == 0:`"
}

// sync5Shorten keeps a message readable for long expressions.
func sync5Shorten(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return string(r)
}

package patterns

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// narrowWidth is the widest layer (output channels of a convolution,
// output features of a linear layer) of a network AMP004 calls narrow.
// Such a network's step is a string of tiny kernels bound by their
// launches, where autocast's casts add kernels and bf16 speeds up nothing:
// corpus/examples/mnist_cnn.py (convolutions of 32 and 64 channels, linear
// layers of 128 and 10) ran 0.73× with autocast against its other fixes
// alone on an H100 (.notes/effect-h100-run7-ablation.jsonl).
const narrowWidth = 128

// narrowGate is what AMP004 knows of the network a step calls: the widest
// layer of a class of this file whose every layer width is known, when it
// is narrowWidth or less; 0 otherwise (the gate does not apply).
type narrowGate struct {
	class string
	width int
}

// gate turns fix into a hint and says why when the network is narrow.
func (g narrowGate) gate(fix *rewrite.Fix, msg *string) *rewrite.Fix {
	if g.width == 0 {
		return fix
	}
	*msg += "; but every layer of " + g.class + " is narrow (at most " + strconv.Itoa(g.width) +
		" channels or features): its step is bound by kernel launches, where autocast's casts cost more than half precision saves" +
		" (an MNIST CNN of 64 channels ran 0.73× with it on an H100), so measure before keeping it"
	if fix != nil {
		fix.Applicability = rewrite.Hint
	}
	return fix
}

// narrowNetwork returns the gate for the networks the statements call:
// it applies when each of them is an instance of a class of this file
// built only from linear and convolutional layers of known width (besides
// activations, norms, pooling and containers), the widest narrowWidth or
// less.
func narrowNetwork(p *Pass, stmts []*rewrite.Node) narrowGate {
	var g narrowGate
	for _, st := range stmts {
		ok := true
		st.Walk(func(n *rewrite.Node) bool {
			if !ok || n.Type != "call" || rewrite.IsDefOrLambda(n) {
				return ok && !rewrite.IsDefOrLambda(n)
			}
			fn := n.ChildByField("function")
			if !fn.Is("identifier", "attribute") || lossCall(n) || !p.Model.IsModule(fn) {
				return true // a loss module is no network
			}
			class := networkClass(p, fn)
			if class == nil {
				ok = false
				return false
			}
			w, known := widestLayer(p, class, nil)
			if !known || w > narrowWidth {
				ok = false
				return false
			}
			if w > g.width {
				g.width = w
			}
			if g.class == "" {
				g.class = class.ChildByField("name").Text()
			}
			return true
		})
		if !ok {
			return narrowGate{}
		}
	}
	return g
}

// networkClass returns the class of this file a model expression is an
// instance of (through `.to(...)`-style chains), when every origin of the
// expression says the same; nil otherwise.
func networkClass(p *Pass, model *rewrite.Node) *rewrite.Node {
	var class *rewrite.Node
	for _, o := range p.Model.Origins(model) {
		e := o.Expr
		if e == nil || o.Index >= 0 || o.Annotation {
			return nil
		}
		e = unchainModuleMethods(e)
		if e == nil || e.Type != "call" {
			return nil
		}
		fn := e.ChildByField("function")
		if fn == nil || fn.Type != "identifier" {
			return nil
		}
		b := p.Model.Binding(fn)
		if b == nil || b.Kind != rewrite.ClassBinding || class != nil && class != b.Stmt {
			return nil
		}
		class = b.Stmt
	}
	return class
}

// layerWidthArg is where each layer constructor takes its output width.
var layerWidthArg = map[string]struct {
	pos     int
	keyword string
}{
	"torch.nn.Linear":          {1, "out_features"},
	"torch.nn.Conv1d":          {1, "out_channels"},
	"torch.nn.Conv2d":          {1, "out_channels"},
	"torch.nn.Conv3d":          {1, "out_channels"},
	"torch.nn.ConvTranspose1d": {1, "out_channels"},
	"torch.nn.ConvTranspose2d": {1, "out_channels"},
	"torch.nn.ConvTranspose3d": {1, "out_channels"},
}

// widestLayer returns the widest linear or convolutional layer a class or
// function of this file builds, itself or through the classes and
// functions of the file it calls. known is false when a layer's width is
// not a number this file shows, or when the code builds anything else
// that may be wide: another library's network, an attention or recurrent
// layer, a class imported from elsewhere, a callable passed in.
func widestLayer(p *Pass, def *rewrite.Node, seen []*rewrite.Node) (width int, known bool) {
	if slices.Contains(seen, def) {
		return 0, true
	}
	if len(seen) > 8 {
		return 0, false
	}
	seen = append(seen, def)
	known, layers := true, 0
	def.Walk(func(n *rewrite.Node) bool {
		if !known {
			return false
		}
		if n.Type != "call" {
			return true
		}
		q := p.Model.CalleeName(n)
		if a, ok := layerWidthArg[q]; ok {
			w, ok := intBound(p, rewrite.Arg(n, a.pos, a.keyword), 0)
			if !ok {
				known = false
				return false
			}
			layers++
			width = max(width, w)
			return true
		}
		if d := p.Model.CalledDef(n); d != nil {
			if d.Type != "function_definition" && d.Type != "class_definition" {
				known = false
				return false
			}
			if d.Type == "function_definition" && d.ChildByField("name").Text() == "__init__" && d.Parent != nil {
				d = enclosingClass(d)
			}
			if d == nil {
				known = false
				return false
			}
			w, ok := widestLayer(p, d, seen)
			if !ok {
				known = false
				return false
			}
			width = max(width, w)
			layers++
			return true
		}
		switch {
		case q == "":
			// A call of a name this file does not resolve: a method of a
			// value (`layers.append`, `x.view`) is harmless, a bare name
			// (`block(...)`, a parameter) may build anything.
			if fn := n.ChildByField("function"); fn != nil && fn.Type == "identifier" {
				known = false
			}
		case !strings.HasPrefix(q, "torch.") && !strings.Contains(q, "."):
			// builtins: super, range, len, int, ...
		case !strings.HasPrefix(q, "torch."),
			strings.HasPrefix(q, "torch.nn.Transformer"), q == "torch.nn.MultiheadAttention",
			q == "torch.nn.LSTM", q == "torch.nn.GRU", q == "torch.nn.RNN":
			known = false
		}
		return known
	})
	return width, known && layers > 0
}

// enclosingClass returns the class whose body defines the method def.
func enclosingClass(def *rewrite.Node) *rewrite.Node {
	for n := def.Parent; n != nil; n = n.Parent {
		if n.Type == "class_definition" {
			return n
		}
		if rewrite.IsDefOrLambda(n) {
			return nil
		}
	}
	return nil
}

// intBound returns the largest value an integer expression takes: a
// literal, a name or parameter whose every origin (assignments, the
// arguments of the function's call sites in this file, its default) is
// one, or a sum or product of such. ok is false when any value is
// unknown.
func intBound(p *Pass, expr *rewrite.Node, depth int) (int, bool) {
	if expr == nil || depth > 4 {
		return 0, false
	}
	switch expr.Type {
	case "integer":
		return intLiteral(p, expr)
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			return intBound(p, c[0], depth+1)
		}
		return 0, false
	case "binary_operator":
		l, lok := intBound(p, expr.ChildByField("left"), depth+1)
		r, rok := intBound(p, expr.ChildByField("right"), depth+1)
		op := expr.ChildByField("operator")
		if !lok || !rok || op == nil {
			return 0, false
		}
		switch op.Text() {
		case "+":
			return l + r, true
		case "*":
			return l * r, true
		case "//":
			return l, true // at most l for positive r
		}
		return 0, false
	case "identifier", "attribute":
		origins := p.Model.Origins(expr)
		if len(origins) == 0 {
			return 0, false
		}
		best := 0
		for _, o := range origins {
			if o.Expr == nil || o.Annotation || o.Index >= 0 || o.Expr == expr {
				return 0, false
			}
			v, ok := intBound(p, o.Expr, depth+1)
			if !ok {
				return 0, false
			}
			best = max(best, v)
		}
		return best, true
	}
	return 0, false
}

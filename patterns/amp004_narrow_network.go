package patterns

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// narrowWidth is the widest convolution (output channels) of a network
// AMP004 calls narrow, and the widest model dimension of a narrow
// attention layer. Such a network's step is a string of tiny kernels bound
// by their launches, where autocast's casts add kernels and bf16 speeds up
// nothing: corpus/examples/mnist_cnn.py (convolutions of 32 and 64
// channels, linear layers of 128 and 10) ran 0.73× with autocast against
// its other fixes alone on an H100 (.notes/effect-h100-run7-ablation.jsonl),
// a CIFAR CNN of 16-64 channels 0.72-0.79×, transformer encoders of width
// 32 and 80 (feed-forward 128 and 256) 0.75-0.87× (.notes/amp004-narrow-h100.txt).
const narrowWidth = 128

// narrowLinearMACs is the largest linear layer (in × out features) of a
// narrow network: MLPs of 1024×1024 layers ran 0.78-0.86× with autocast
// at batch 64 to 4096 on an H100, a 784-30-784 autoencoder 0.72-0.91×;
// 2048×2048 layers gained 2.06× at batch 4096 (.notes/amp004-narrow-h100.txt).
const narrowLinearMACs = 1024 * 1024

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
		" (an MNIST CNN of 64 channels ran 0.73× with it on an H100, MLPs of 1024-wide layers 0.78-0.86×), so measure before keeping it"
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
			if fn.Type == "attribute" && !p.Model.IsModule(fn) && p.Model.IsModule(fn.ChildByField("object")) {
				fn = fn.ChildByField("object") // self.policy.evaluate(...): a method of the network
			}
			if !fn.Is("identifier", "attribute") || lossCall(n) || !p.Model.IsModule(fn) {
				return true // a loss module is no network
			}
			classes, name := networkClasses(p, fn)
			if len(classes) == 0 {
				ok = false
				return false
			}
			for _, class := range classes {
				w, known := widestLayer(p, class, nil)
				if !known {
					ok = false
					return false
				}
				g.width = max(g.width, w)
			}
			if g.class == "" {
				g.class = name
			}
			return true
		})
		if !ok {
			return narrowGate{}
		}
	}
	return g
}

// networkClasses returns what builds the networks a model expression may
// be (through `.to(...)`-style chains), one per origin: classes of this
// file, or torch.nn containers or layers built in place (`model =
// nn.Sequential(nn.Linear(2, 100), ...)`, again in a later notebook cell),
// with the name the message gives them; nil when any origin is something
// else.
func networkClasses(p *Pass, model *rewrite.Node) ([]*rewrite.Node, string) {
	return networkClassesOf(p, model, 0)
}

func networkClassesOf(p *Pass, model *rewrite.Node, depth int) ([]*rewrite.Node, string) {
	var out []*rewrite.Node
	name := ""
	for _, o := range p.Model.Origins(model) {
		e := o.Expr
		if o.Annotation {
			continue // `model: torch.nn.Module` says nothing of the layers
		}
		if e == nil || o.Index >= 0 || o.Model != nil {
			return nil, ""
		}
		e = unchainModuleMethods(e)
		if e != nil && e.Type == "identifier" && e != model && depth < 3 {
			// A parameter whose call sites pass models by name
			// (`train_step(model=model_1, ...)`): each of those.
			classes, n := networkClassesOf(p, e, depth+1)
			if len(classes) == 0 {
				return nil, ""
			}
			for _, c := range classes {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
			if name == "" {
				name = n
			}
			continue
		}
		if e == nil || e.Type != "call" {
			return nil, ""
		}
		fn := e.ChildByField("function")
		var class *rewrite.Node
		n := ""
		if q := p.Model.CalleeName(e); strings.HasPrefix(q, "torch.nn.") && !strings.Contains(q, ".functional.") {
			class, n = e, q[strings.LastIndexByte(q, '.')+1:]
		} else {
			if fn == nil || fn.Type != "identifier" {
				return nil, ""
			}
			b := p.Model.Binding(fn)
			if b == nil || b.Kind != rewrite.ClassBinding {
				return nil, ""
			}
			class, n = b.Stmt, b.Stmt.ChildByField("name").Text()
		}
		if !slices.Contains(out, class) {
			out = append(out, class)
		}
		if name == "" {
			name = n
		}
	}
	return out, name
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
	width, layers, known := layersOf(p, def, seen)
	return width, known && layers > 0
}

// layersOf is widestLayer's walk: the widest layer, how many layers, and
// whether every one is known (a helper that builds none is known, with 0).
func layersOf(p *Pass, def *rewrite.Node, seen []*rewrite.Node) (width, layers int, known bool) {
	if slices.Contains(seen, def) {
		return 0, 0, true
	}
	if len(seen) > 8 {
		return 0, 0, false
	}
	seen = append(seen, def)
	known = true
	def.Walk(func(n *rewrite.Node) bool {
		if !known {
			return false
		}
		if n.Type != "call" {
			return true
		}
		q := p.Model.CalleeName(n)
		if q == "torch.nn.Linear" {
			// Narrow when in × out is small; the output alone when the
			// input width is not shown.
			// One side may be a size the code takes at run time (PPO's
			// state_dim, action_dim): narrow when the other is narrowWidth
			// or less.
			out, outOK := intBound(p, rewrite.Arg(n, 1, "out_features"), 0)
			in, inOK := intBound(p, rewrite.Arg(n, 0, "in_features"), 0)
			switch {
			case inOK && outOK && in*out <= narrowLinearMACs:
			case outOK && out <= narrowWidth, inOK && in <= narrowWidth:
			default:
				known = false
				return false
			}
			layers++
			if outOK {
				width = max(width, out)
			}
			if inOK {
				width = max(width, in)
			}
			return true
		}
		if a, ok := layerWidthArg[q]; ok {
			w, ok := intBound(p, rewrite.Arg(n, a.pos, a.keyword), 0)
			if !ok || w > narrowWidth {
				known = false
				return false
			}
			layers++
			width = max(width, w)
			return true
		}
		if w, ok, attention := attentionWidth(p, n, q); attention {
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
			w, n, ok := layersOf(p, d, seen)
			if !ok {
				known = false
				return false
			}
			width = max(width, w)
			layers += n
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
		case q == "torch.nn.TransformerEncoder" || q == "torch.nn.TransformerDecoder":
			// A stack of the layer passed first: built here (walked as an
			// argument) or named (followed to its value).
			layer := rewrite.Arg(n, 0, "encoder_layer")
			if q == "torch.nn.TransformerDecoder" {
				layer = rewrite.Arg(n, 0, "decoder_layer")
			}
			if layer != nil && layer.Type == "identifier" {
				v := p.Model.ValueOf(layer)
				if v == nil || v.Type != "call" {
					known = false
					return false
				}
				w, ok, attention := attentionWidth(p, v, p.Model.CalleeName(v))
				if !attention || !ok {
					known = false
					return false
				}
				layers++
				width = max(width, w)
			}
		case !strings.HasPrefix(q, "torch."),
			strings.HasPrefix(q, "torch.nn.Transformer"),
			q == "torch.nn.LSTM", q == "torch.nn.GRU", q == "torch.nn.RNN":
			known = false
		}
		return known
	})
	return width, layers, known
}

// attentionWidth measures an attention layer: nn.MultiheadAttention of
// embed_dim, nn.TransformerEncoderLayer / DecoderLayer of d_model and
// dim_feedforward (2048 when not given). ok: narrow (a model dimension of
// narrowWidth or less and a feed-forward of 4 × narrowWidth or less, as
// measured); attention: q is such a layer.
func attentionWidth(p *Pass, call *rewrite.Node, q string) (width int, ok, attention bool) {
	switch q {
	case "torch.nn.MultiheadAttention":
		d, known := intBound(p, rewrite.Arg(call, 0, "embed_dim"), 0)
		return d, known && d <= narrowWidth, true
	case "torch.nn.TransformerEncoderLayer", "torch.nn.TransformerDecoderLayer":
		d, known := intBound(p, rewrite.Arg(call, 0, "d_model"), 0)
		ff, ffKnown := 2048, true
		if a := rewrite.Arg(call, 2, "dim_feedforward"); a != nil {
			ff, ffKnown = intBound(p, a, 0)
		}
		return max(d, ff), known && ffKnown && d <= narrowWidth && ff <= 4*narrowWidth, true
	}
	return 0, false, false
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
		case "**":
			if r >= 0 && r <= 4 {
				v := 1
				for range r {
					v *= l
				}
				return v, true
			}
		}
		return 0, false
	case "identifier", "attribute":
		origins := p.Model.Origins(expr)
		if len(origins) == 0 {
			return 0, false
		}
		best, n := 0, 0
		for _, o := range origins {
			if o.Annotation {
				continue // `hidden_units: int`: the call sites' values decide
			}
			n++
			if o.Expr == nil || o.Index >= 0 || o.Expr == expr {
				return 0, false
			}
			v, ok := intBound(p, o.Expr, depth+1)
			if !ok {
				return 0, false
			}
			best = max(best, v)
		}
		return best, n > 0
	}
	return 0, false
}

package patterns

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// ChannelsLast is MEM006.
var ChannelsLast = &Rule{
	Code:      "MEM006",
	Name:      "channels-last-conv",
	Title:     "Keep a convolutional network in channels_last under autocast",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	Names:     []string{"autocast"}, // the model must run under autocast
	Check:     checkChannelsLast,
}

func init() { Register(ChannelsLast) }

// channelsLastMsg says what the rule saw and when the change pays.
const channelsLastMsg = "this convolutional network runs under autocast in the default NCHW layout: convert it with " +
	"`.to(memory_format=torch.channels_last)`, the layout tensor-core convolutions use " +
	"(ResNet-50 training at batch 256, 224×224, bf16 on an H100: 1.55× faster)"

func checkChannelsLast(p *Pass) {
	if !p.Env.Versions.Torch.AtLeast(1, 5) || p.File.Spells("channels_last") {
		return
	}
	v := p.Env.Gate(Need{MinCompute: 70}) // tensor cores
	if v.Silent() {
		return
	}
	builds := &convBuilds{p: p}
	for _, ac := range autocastCalls(p) {
		with := enclosingWith(ac.Call)
		if with == nil || ac.Off {
			continue
		}
		with.ChildByField("body").Walk(func(n *rewrite.Node) bool {
			if n.Type != "call" {
				return true
			}
			fn := n.ChildByField("function")
			if fn.Is("identifier", "attribute") && p.Model.IsModule(fn) {
				builds.from(fn, 0)
			}
			return true
		})
	}
	if len(builds.found) == 0 {
		return
	}
	viewRisk := viewCall(p)
	for _, b := range builds.found {
		if untrainedNarrowHelper(p, b) || b.code != codeKnown && groupNormOnly(p) {
			continue
		}
		msg := channelsLastMsg
		if b.assumption != "" {
			msg += " (" + b.assumption + ")"
		}
		fix := channelsLastFix(p, b)
		switch {
		case fix == nil:
		case b.code == codeHere && viewRisk != nil:
			fix.Applicability = rewrite.Hint
			msg += "; but this file calls `.view()` (line " + strconv.Itoa(p.File.Src.LineOf(viewRisk.Start)+1) +
				"), which fails on a channels_last activation larger than 1×1: use `.reshape()` or `torch.flatten()` there first"
		case b.code == codeHere:
			// A network of the file's own: often a small one, where the
			// layout's gain is nil and the first convolution's input copy
			// can cost more (corpus/examples/mnist_cnn.py: 0.95×).
			fix.Applicability = rewrite.Hint
			msg += "; it pays on ImageNet-sized convolutions, not on small networks (an MNIST CNN ran 0.95× with it): measure before keeping it"
		case b.code == codeElsewhere:
			// The project's own network, read elsewhere: as often a
			// small one as not (blind sample S39P's 36×60 eye-patch CNN
			// was told only ResNet-50's gain).
			fix.Applicability = rewrite.Hint
			msg += "; its forward is in another module, where a `.view()` on an activation larger than 1×1 would fail: check it uses `.reshape()` or `torch.flatten()`; and it pays on ImageNet-sized convolutions, not on small networks (an MNIST CNN ran 0.95× with it): measure before keeping it"
		}
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		p.Report(b.value, msg, v.Downgrade(fix))
	}
}

// groupNormOnly reports a project whose networks normalise with GroupNorm
// and never with BatchNorm (a SimVP or U-Net of its own, blind sample
// S39E): GroupNorm's CUDA kernel works in NCHW, so channels_last adds a
// layout copy around every norm. A bf16 training step of 8 conv +
// GroupNorm blocks ran 0.76-0.82× in channels_last on an H200, the same
// stack with BatchNorm 1.47-2.13× (corpus/gpu/mem006_groupnorm.py,
// .notes/mem006-groupnorm-h200.txt). Asked of the project's own
// classes only: a torchvision or timm network's BatchNorm is not spelled
// in the project.
func groupNormOnly(p *Pass) bool {
	return p.Model.ProjectSpells("GroupNorm(") && !p.Model.ProjectSpells("BatchNorm")
}

// untrainedNarrowHelper reports a build whose network no optimizer of
// the file trains, in a file that builds optimizers, and that gpuopt
// reads as narrow (narrowWidthOf): a helper such as a multiscale loss's
// 3→64 downscaling convolution (blind sample S38P's derain GAN, at batch
// 1), whose layout is no share of the step. A frozen VGG of a perceptual
// loss, wide, keeps the finding.
func untrainedNarrowHelper(p *Pass, b convBuild) bool {
	name := b.target
	if strings.HasPrefix(name, "self.") || name == "" {
		return false
	}
	optimizers := torchOptimizerCalls(p)
	if len(optimizers) == 0 {
		return false
	}
	for _, c := range optimizers {
		if args := c.ChildByField("arguments"); args != nil && mentions(args, name) {
			return false
		}
	}
	return narrowNetworkAt(p, b.value, &widthWalk{})
}

// convBuild is a statement that builds a convolutional network and binds
// it to a name (`model = models.resnet50()`, `self.net = Net()`).
type convBuild struct {
	stmt       *rewrite.Node // the assignment
	value      *rewrite.Node // its right-hand side
	target     string        // "model", "self.net"
	assumption string        // what the message assumes, "" when certain
	code       networkCode   // where its forward's code is
}

// convBuilds collects the builds behind the models called under autocast.
type convBuilds struct {
	p     *Pass
	found []convBuild
}

// from follows a model expression back to the statements that build it,
// through the wrappers that keep the network inside (DataParallel,
// DistributedDataParallel, torch.compile) and the moves chained onto it.
func (c *convBuilds) from(expr *rewrite.Node, depth int) {
	if depth > 3 {
		return
	}
	p := c.p
	for _, o := range p.Model.Origins(expr) {
		e := o.Expr
		if e == nil || e.Type != "call" || o.Index >= 0 {
			continue
		}
		inner := unchainModuleMethods(e)
		if inner == nil || inner.Type != "call" {
			continue
		}
		switch p.Model.CalleeName(inner) {
		case "torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
			"torch.nn.parallel.DistributedDataParallel", "torch.compile":
			if args := rewrite.PositionalArgs(inner); len(args) > 0 && args[0].Is("identifier", "attribute") {
				c.from(args[0], depth+1)
			}
			continue
		}
		asg := e.Parent
		if asg == nil || asg.Type != "assignment" || asg.ChildByField("right") != e {
			continue
		}
		left := asg.ChildByField("left")
		if left == nil || !left.Is("identifier", "attribute") {
			continue
		}
		assumption, code, ok := convNetwork(p, inner)
		if !ok || slices.ContainsFunc(c.found, func(b convBuild) bool { return b.stmt == asg }) {
			continue
		}
		c.found = append(c.found, convBuild{stmt: asg, value: e, target: left.Text(), assumption: assumption, code: code})
	}
}

// torchvisionConvFamilies are the torchvision (and timm) classifier
// families built from 2-D convolutions.
var torchvisionConvFamilies = []string{
	"resnet", "resnext", "wide_resnet", "vgg", "alexnet", "densenet", "mobilenet", "efficientnet",
	"regnet", "convnext", "shufflenet", "squeezenet", "googlenet", "inception", "mnasnet",
}

func convFamily(name string) bool {
	name = strings.ToLower(name)
	return slices.ContainsFunc(torchvisionConvFamilies, func(f string) bool { return strings.HasPrefix(name, f) })
}

// convNetwork reports whether the call builds a convolutional network: a
// torchvision classifier by name, one chosen at run time from
// torchvision.models (`models.__dict__[args.arch]()`, said in the
// assumption), a timm model named by a literal, or a class of this file in
// a file that builds nn.Conv2d layers (local).
func convNetwork(p *Pass, call *rewrite.Node) (assumption string, code networkCode, ok bool) {
	fn := call.ChildByField("function")
	if fn == nil {
		return "", codeKnown, false
	}
	switch q := p.Model.CalleeName(call); {
	case strings.HasPrefix(q, "torchvision.models.") && strings.Count(q, ".") == 2:
		name := q[len("torchvision.models."):]
		if name == "get_model" {
			s, ok := rewrite.StringValue(rewrite.Arg(call, 0, "name"))
			return "", codeKnown, ok && convFamily(s)
		}
		return "", codeKnown, convFamily(name)
	case q == "timm.create_model":
		s, ok := rewrite.StringValue(rewrite.Arg(call, 0, "model_name"))
		return "", codeKnown, ok && convFamily(s)
	}
	// models.__dict__[args.arch](), getattr(models, args.arch)()
	var from *rewrite.Node
	switch fn.Type {
	case "subscript":
		if v := fn.ChildByField("value"); v != nil && v.Type == "attribute" && v.ChildByField("attribute").Text() == "__dict__" {
			from = v.ChildByField("object")
		}
	case "call":
		if g := fn.ChildByField("function"); g != nil && g.Type == "identifier" && g.Text() == "getattr" {
			if args := rewrite.PositionalArgs(fn); len(args) == 2 {
				from = args[0]
			}
		}
	}
	if from != nil {
		if p.Model.QualifiedName(from) == "torchvision.models" {
			q := torchvisionArchDefault(p, call)
			if q == "" {
				return "assumes the architecture chosen at run time is one of torchvision's convolutional classifiers, as most are", codeKnown, true
			}
			name := q[strings.LastIndexByte(q, '.')+1:]
			if !torchvisionCNN(name) {
				// DINO's `--arch` defaults to vit_small: the torchvision
				// branch is not the default run (blind sample FF).
				return "", codeKnown, false
			}
			return "assumes the architecture chosen at run time is one of torchvision's convolutional classifiers, as its default " + name + " is", codeKnown, true
		}
		return "", codeKnown, false
	}
	// A class of this file whose code builds 2-D convolutions.
	if fn.Type == "identifier" {
		if b := p.Model.Binding(fn); b != nil && b.Kind == rewrite.ClassBinding && buildsConv(p, b.Stmt, nil) {
			return "assumes " + fn.Text() + " is convolutional: it builds nn.Conv2d layers", codeHere, true
		}
		if d := p.Model.ImportedDef(fn); d != nil && d.Class && slices.Contains(d.Calls, "torch.nn.Conv2d") && !patchConvOnly(p.Model, d) {
			return "assumes " + fn.Text() + " of " + baseName(d.Path) + " is convolutional: it builds nn.Conv2d layers", codeElsewhere, true
		}
	}
	return "", codeKnown, false
}

// networkCode is where the code of a network's forward pass lives, which
// decides whether a `.view()` on its activations can be ruled out.
type networkCode int

const (
	codeKnown     networkCode = iota // a library's (torchvision, timm): 2-D logits, no .view() on activations
	codeHere                         // a class of this file
	codeElsewhere                    // a class of another project module, not read here
)

// buildsConv reports whether a class or function of this file calls
// nn.Conv2d, itself or through the classes and functions of the file it
// calls (`self.layer1 = self.make_layer(ResidualBlock, 16)`,
// `conv3x3(...)`).
func buildsConv(p *Pass, def *rewrite.Node, seen []*rewrite.Node) bool {
	if def == nil || slices.Contains(seen, def) || len(seen) > 8 {
		return false
	}
	seen = append(seen, def)
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "call" {
			return !found
		}
		if p.Model.CalleeName(n) == "torch.nn.Conv2d" {
			found = true
			return false
		}
		if fn := n.ChildByField("function"); fn != nil && fn.Type == "identifier" {
			if b := p.Model.Binding(fn); b != nil && (b.Kind == rewrite.ClassBinding || b.Kind == rewrite.DefBinding) && buildsConv(p, b.Stmt, seen) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// viewCall returns the file's first `.view(...)` call (nil when there is
// none): on a channels_last activation or output larger than 1×1,
// `.view()` raises where `.reshape()` copies. A class of the file may
// return such tensors (an autoencoder, a generator), unlike torchvision's
// classifiers, whose logits are 2-D.
func viewCall(p *Pass) *rewrite.Node {
	if calls := p.File.MethodCalls("view"); len(calls) > 0 {
		return calls[0]
	}
	return nil
}

// channelsLastFix is `target = target.to(memory_format=torch.channels_last)`
// after the statement that builds the network: the layout survives the
// later moves (`.cuda()` and `.to(device)` preserve it) and the parameters
// stay the same objects, so an optimizer built afterwards or before sees them.
func channelsLastFix(p *Pass, b convBuild) *rewrite.Fix {
	e, ok := rebindAfterEdit(p, b.stmt, "torch.channels_last", func(channelsLast string) string {
		return b.target + " = " + b.target + ".to(memory_format=" + channelsLast + ")"
	})
	if !ok {
		return nil
	}
	return Fix(rewrite.Unsafe, "Convert the network to channels_last", e)
}

// enclosingWith returns the with statement whose item is call, or nil.
func enclosingWith(call *rewrite.Node) *rewrite.Node {
	for n := call.Parent; n != nil; n = n.Parent {
		switch n.Type {
		case "with_statement":
			return n
		case "with_item", "with_clause", "as_pattern", "parenthesized_expression":
			continue
		}
		return nil
	}
	return nil
}

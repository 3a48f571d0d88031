package patterns

import (
	"regexp"
	"slices"
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
// 32 and 80 (feed-forward 128 and 256) 0.75-0.87× (.notes/amp004-narrow-h100.txt),
// temporal convolution networks of 25 and 30 channels 0.73-0.76×, a CIFAR
// CNN of 64/128 channels 0.90× where one of 128/256 gains 1.10× and a TCN
// of 256 channels 1.45× (corpus/gpu/amp004_narrow.py,
// .notes/amp004-narrow-h100-2.txt).
const narrowWidth = 128

// narrowLinearMACs is the largest linear layer (in × out features) of a
// narrow network: MLPs of 1024×1024 layers ran 0.78-0.86× with autocast
// at batch 64 to 4096 on an H100, a 784-30-784 autoencoder 0.72-0.91×,
// and the Nature DQN CNN, whose 3136×512 layer is its largest, 0.70-0.85×
// at batch 32 and 256; 2048×2048 layers gained 2.06× at batch 4096
// (.notes/amp004-narrow-h100.txt, .notes/amp004-narrow-h100-2.txt).
const narrowLinearMACs = 2 * 1024 * 1024

// narrowLinearSide is the widest side of a linear layer whose other side
// is read at run time (an environment's observation size, a vocabulary)
// that AMP004 still calls narrow: MLPs of 256- and 512-wide layers ran
// 0.62-0.85× with autocast at batch 256 and 4096 on an H100
// (.notes/amp004-narrow-h100-2.txt).
const narrowLinearSide = 256

// narrowRecurrentHidden is the widest hidden state (and known input) of
// an nn.LSTM, nn.GRU or nn.RNN that AMP004 calls narrow: forecasters of
// hidden 64 to 256 over windows of 24 and 168 steps ran 0.60-1.02× with
// autocast at batch 128 and 512 on an H100, hidden 512 0.87-1.14×
// (corpus/gpu/amp004_narrow.py rnn, .notes/amp004-rnn-h100.txt).
const narrowRecurrentHidden = 256

// countedLinearSide is the widest other side of a linear layer whose
// unknown side is a count of columns (`len(feat_cols)`, `len(target_cols)`)
// that AMP004 and AMP005 still call narrow: a tabular model's input or
// output layer beside a 512-wide hidden one.
const countedLinearSide = 1024

// columnCount reports a linear layer's argument that is `len(...)` of
// something, directly or through the parameter it reaches the layer by
// (a default `output_size=len(target_cols)`): the number of features or
// targets of a table, read at run time and small beside a vocabulary.
func columnCount(call *rewrite.Node, pos int, kw string) bool {
	a := rewrite.Arg(call, pos, kw)
	if a == nil {
		return false
	}
	isLen := func(e *rewrite.Node) bool {
		return e != nil && e.Type == "call" && e.ChildByField("function").Text() == "len"
	}
	if isLen(a) {
		return true
	}
	if a.Type != "identifier" {
		return false
	}
	// The parameter's default, or an argument spelled len(...) where the
	// class is built is what the caller handed: both read at run time.
	for n := a.Parent; n != nil; n = n.Parent {
		if n.Type != "function_definition" {
			continue
		}
		params := n.ChildByField("parameters")
		if params == nil {
			return false
		}
		for _, p := range params.NamedChildren() {
			if p.Is("default_parameter", "typed_default_parameter") && p.ChildByField("name").Text() == a.Text() {
				return isLen(p.ChildByField("value"))
			}
		}
		return false
	}
	return false
}

// Evidence that a network is large enough for autocast to pay, from the
// H100 measurements: CIFAR convolutions of 256/512 channels ran 1.59× and
// a TCN of 256 channels 1.45× with it where 128/256 channels gave 1.10×
// (corpus/gpu/amp004_narrow.py), the encoder of d 1024 the catalogue's
// 5.0×; an LSTM seq2seq and a Transformer of d 256 ran 0.65× (blind sample
// Z, .notes/blind-z.md). Linear layers alone are no such evidence: MLPs
// of 2048- and 4096-wide layers ran 0.75-0.91× at batch 256 and 512 and
// gained only at batch 4096 (1.66× and 3.84×; corpus/gpu/amp004_narrow.py
// wide, .notes/amp004-wide-h100.txt), and a script's batch is rarely
// known: an MLP gets the hedged hint (sizeGate).
const (
	largeConvWidth = 256
	largeModelDim  = 512
)

// largeLibraries build networks of the sizes autocast was measured on.
var largeLibraries = []string{"torchvision.models.", "timm.", "transformers."}

// modelLibraries build pretrained networks: largeLibraries and the
// segmentation and image-model libraries beside them.
var modelLibraries = append(slices.Clip(largeLibraries), "segmentation_models_pytorch.", "efficientnet_pytorch.", "pretrainedmodels.", "open_clip.")

// fromLibrary reports a qualified name in one of libs (prefixes).
func fromLibrary(q string, libs []string) bool {
	return slices.ContainsFunc(libs, func(lib string) bool { return strings.HasPrefix(q, lib) })
}

// sizeGate is what AMP004 says of a network neither narrow nor shown to
// be large: whether autocast pays is then a question of its size.
const sizeGate = "; whether it pays depends on the network's size: a Transformer encoder of d 1024 ran 5.0× with it on an H100, while networks of a few hundred channels or features ran 0.65-0.9× with it (an LSTM seq2seq, a Transformer of d 256, small CNNs at batch 1): keep it where the step measures faster"

// largeNetwork reports statements that run a network shown to be large
// (largeConvWidth, largeModelDim, a vocabulary head, a library's model):
// the only networks AMP004 wraps without asking to measure first.
func largeNetwork(p *Pass, stmts []*rewrite.Node) bool {
	walk := &widthWalk{gan: ganScript(p)}
	top := &widthFrame{m: p.Model, walk: walk}
	large := false
	for _, st := range stmts {
		st.Walk(func(n *rewrite.Node) bool {
			if large || n.Type != "call" || rewrite.IsDefOrLambda(n) {
				return !large && !rewrite.IsDefOrLambda(n)
			}
			fn := n.ChildByField("function")
			if fn.Type == "attribute" && !p.Model.IsModule(fn) && p.Model.IsModule(fn.ChildByField("object")) {
				fn = fn.ChildByField("object")
			}
			if !fn.Is("identifier", "attribute") || lossCall(n) || !p.Model.IsModule(fn) {
				return true
			}
			if libraryModel(p, fn) {
				large = true
				return false
			}
			nets, _ := networksOf(top, fn, 0)
			for _, net := range nets {
				if shownLarge(net) {
					large = true
					return false
				}
			}
			return true
		})
	}
	return large
}

// libraryModel reports a model expression whose origins include a
// library's network (torchvision.models.resnet50(), timm.create_model,
// AutoModel.from_pretrained).
func libraryModel(p *Pass, model *rewrite.Node) bool {
	for _, o := range p.Model.Origins(model) {
		e := unchainModuleMethods(o.Expr)
		if e == nil || e.Type != "call" {
			continue
		}
		q := p.Model.CalleeName(e)
		fn := e.ChildByField("function")
		if q == "" && fn != nil && fn.Type == "subscript" {
			// `models.__dict__[args.arch]()`: a torchvision model by name.
			if obj := fn.ChildByField("value"); obj != nil && obj.Type == "attribute" && obj.ChildByField("attribute").Text() == "__dict__" {
				q = p.Model.QualifiedName(obj.ChildByField("object")) + "."
			}
		}
		if q == "getattr" {
			if a := rewrite.PositionalArgs(e); len(a) > 0 {
				q = p.Model.QualifiedName(a[0]) + "."
			}
		}
		if fromLibrary(q, largeLibraries) {
			return true
		}
		if fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "from_pretrained" {
			return true
		}
	}
	return false
}

// shownLarge walks a network's frame for a layer of a size autocast was
// measured to pay on.
func shownLarge(fr *widthFrame) bool {
	// The nesting is bounded, which ends the recursion through the
	// networks a class is handed even when they cycle (`self.decoder =
	// Wrap(self.decoder)`: blind sample S19H's mmt, a stack overflow
	// before, which no recover() catches).
	if fr.walk.nested >= maxShownNesting || fr.walk.steps > maxWidthSteps {
		return false
	}
	fr.walk.nested++
	defer func() { fr.walk.nested-- }()
	large := false
	var vocab []string // the spellings of the vocabulary sizes seen
	fr.def.Walk(func(n *rewrite.Node) bool {
		if large || n.Type == "parameters" {
			return false
		}
		if fr.walk.steps++; fr.walk.steps > maxWidthSteps {
			return false
		}
		if n.Type != "call" {
			return true
		}
		q := fr.m.CalleeName(n)
		if fromLibrary(q, largeLibraries) {
			large = true
			return false
		}
		switch {
		case q == "torch.nn.Linear":
			// Wide linear layers alone show nothing: their gain depends on
			// the batch (largeLinearMACs).
			in, inOK := intBound(fr, rewrite.Arg(n, 0, "in_features"), 0)
			_, outOK := intBound(fr, rewrite.Arg(n, 1, "out_features"), 0)
			if a := rewrite.Arg(n, 1, "out_features"); a != nil && !outOK && slices.Contains(vocab, a.Text()) && (!inOK || in > narrowLinearSide) {
				// `nn.Linear(dim, vocab)` beside `nn.Embedding(vocab, dim)`;
				// not from a hidden size of 256 or less, where even a
				// 50,000-word head is a small matmul per token (makemore's
				// 64-wide character model: blind sample JJ).
				large = true
			}
			return false
		case q == "torch.nn.Embedding":
			// A language model's vocabulary: its output layer, a linear
			// layer as wide as the table, is a large matmul per token
			// (smallVocabulary). The table alone shows nothing: lookups
			// are cheap, and a classifier's position table of a size the
			// code computes is not a vocabulary (blind sample DD: a
			// Transformer of d 128 called large for it).
			a := rewrite.Arg(n, 0, "num_embeddings")
			v, ok := intBound(fr, a, 0)
			d, dOK := intBound(fr, rewrite.Arg(n, 1, "embedding_dim"), 0)
			large = ok && v > smallVocabulary && dOK && d >= largeModelDim
			if a != nil && (!ok || v > smallVocabulary) {
				vocab = append(vocab, a.Text())
			}
			return false
		case q == "torch.nn.LSTM", q == "torch.nn.GRU":
			h, ok := intBound(fr, rewrite.Arg(n, 1, "hidden_size"), 0)
			large = ok && h >= 2*largeModelDim
			return false
		case q == "torch.nn.MultiheadAttention", q == "torch.nn.TransformerEncoderLayer", q == "torch.nn.TransformerDecoderLayer", q == "torch.nn.Transformer":
			arg := rewrite.Arg(n, 0, "embed_dim")
			if q != "torch.nn.MultiheadAttention" {
				arg = rewrite.Arg(n, 0, "d_model")
			}
			d, ok := intBound(fr, arg, 0)
			large = ok && d >= largeModelDim || q == "torch.nn.Transformer" && arg == nil // nn.Transformer() is d 512
			return false
		}
		if a, ok := layerWidthArg[q]; ok {
			w, ok := intBound(fr, rewrite.Arg(n, a.pos, a.keyword), 0)
			large = ok && w >= largeConvWidth
			return false
		}
		if d := fr.m.CalledDef(n); d != nil {
			if d.Type == "function_definition" && d.ChildByField("name").Text() == "__init__" {
				d = enclosingClass(d)
			}
			if d != nil {
				if sub := fr.enter(fr.m, d, n); sub != nil && shownLarge(sub) {
					large = true
				}
			}
			return !large
		}
		if d := fr.m.ImportedDef(n.ChildByField("function")); d != nil {
			if fm, node := fr.m.DefinitionOf(d); node != nil {
				if sub := fr.enter(fm, node, n); sub != nil && shownLarge(sub) {
					large = true
				}
			}
		}
		return !large
	})
	if !large && fr.def.Type == "class_definition" {
		// The networks the building call hands the class.
		for _, param := range moduleParams(fr.m, fr.def) {
			if a, in, _, ok := fr.argument(param); ok {
				if e := unchainModuleMethods(a); e != nil && e.Type == "call" {
					q := in.m.CalleeName(e)
					if fromLibrary(q, largeLibraries) {
						return true // EncoderWithHead(torchvision.models.resnet50(), ...)
					}
				}
				nets, _ := networksOf(in, a, 0)
				for _, net := range nets {
					if shownLarge(net) {
						return true
					}
				}
			}
		}
	}
	return large
}

// narrowGate is what AMP004 knows of the network a step calls: the widest
// layer of the networks it runs, when every layer width is known (from
// the code, or from its command-line flags' defaults) and the widest is
// narrowWidth or less; 0 otherwise (the gate does not apply).
type narrowGate struct {
	class string
	width int
	// attention: the networks attend (see widthWalk.attention).
	attention bool
}

// widthFrame is where a network's layer widths are read: the module that
// holds the code, the class or function being walked (or a torch.nn
// container built in place), and the call that built or called it, whose
// arguments are read in the caller's frame. The frame at the top is the
// step's file with no definition. Reading a parameter through the frame
// that built the class is what lets `TCN(..., [args.nhid] * args.levels)`
// give the widths of the convolutions two modules away.
type widthFrame struct {
	m      *rewrite.Model
	def    *rewrite.Node
	call   *rewrite.Node
	caller *widthFrame
	walk   *widthWalk
}

// widthWalk is what one gate query shares across its frames.
type widthWalk struct {
	steps  int // work done, bounded by maxWidthSteps
	nested int // shownLarge calls under way, bounded by maxShownNesting
	// toy asks whether the networks are toys rather than narrow: no
	// convolution or attention, linear layers of toyMACs or less, and
	// recurrent layers and embeddings of toyWidth or less.
	toy bool
	// gan: the file trains a GAN, whose batch is its recipe's (64 or
	// 128): linear layers up to ganLinearMACs are narrow at that batch.
	gan bool
	// tables: an nn.Embedding of a vocabulary larger than smallVocabulary
	// or read at run time was seen; openSide: a linear layer with a side
	// read at run time was, or a matrix product with a layer's weight
	// (`F.linear(h, self.embed.weight)`). Together they may be a language
	// model's output layer, as wide as its vocabulary: not narrow. A table
	// alone is a recommender's or classifier's lookup (NCF's users and
	// items ran 0.67-0.77× with autocast, .notes/amp004-rnn-h100.txt).
	tables, openSide bool
	// attention: a block of the networks attends (an attention or
	// Transformer layer of torch.nn, scaled_dot_product_attention, or a
	// softmax beside a matrix product in one definition). torch.compile
	// fuses the elementwise work around it even in narrow networks: a
	// 4-block GPT of d 256 trained 1.39-1.43× faster compiled on an H100
	// (corpus/gpu/opt004_tinygpt.py, .notes/opt004-tinygpt-h100.txt).
	attention bool
}

// ganLinearMACs is the largest linear layer of a GAN's narrow network:
// an MNIST GAN collection's generator (62-1024-6272, transposed
// convolutions of 64 and 1 channels) and discriminator (convolutions of
// 64 and 128, 6272-1024-1) each ran 0.86× with bf16 autocast at its batch
// of 64 on an H100 (corpus/gpu/amp004_narrow.py gan,
// .notes/amp004-gan-h100.txt); blind sample HH judged AMP004 on ten such
// scripts false.
const ganLinearMACs = 8 * 1024 * 1024

// ganScript reports a script that trains a GAN: it names a
// discriminator (the class, `netD`). Its batch size is part of the
// recipe that balances the two networks.
func ganScript(p *Pass) bool {
	return p.File.SpellsAny([]string{"discriminator", "Discriminator", "netD"})
}

// toyMACs and toyWidth bound the layers of a toy network: a tutorial's
// word-prediction MLP (widths 2 to 7) and a character LSTM of 128 units
// trained 0.6× and 0.88× as fast on an H200 as on its host's CPU, a
// 512-wide Transformer 4.7× faster (blind sample V, .notes/blind-v.md).
// MLPs of 1000-100-10 and 784-128-10 at batch 64 trained 0.31× and 0.55×
// as fast on an H100 as on its host's 16 CPU threads, 784-500-10 at batch
// 100 0.94×, 1000-1000-10 at 64 1.11× (corpus/gpu/dev001_toy.py,
// .notes/dev001-toy-h100.txt): linear layers up to 784×500 are toys
// where the code shows no loader batch above toyBatch.
// toySide is the widest other side of a toy linear layer one side of
// which is read at run time (NNLM's 2 hidden units beside its
// vocabulary).
const (
	toyMACs  = 784 * 500
	toyBatch = 128
	toyWidth = 128
	toySide  = 16
)

// smallVocabulary is the largest nn.Embedding table of a network AMP004
// may still call narrow: a language model's vocabulary is larger, and
// its output layer (hidden × vocabulary per token) is then a large matrix
// multiply whatever the hidden width.
const smallVocabulary = 4096

// atariActions is the number of actions of Atari's full action set, the
// largest discrete action space of the Gym environments RL examples train
// on: a Q-network's output layer of `env.action_space.n` units is that
// wide at most.
const atariActions = 18

// actionCountName matches the names RL code gives its action count
// (num_actions, n_actions, action_dim, action_size, num_action).
var actionCountName = regexp.MustCompile(`^(num_?|n_?)actions?$|^action_?(dim|size|num|count)$`)

// lastName is an identifier's name, or an attribute's last one.
func lastName(e *rewrite.Node) string {
	if e.Type == "attribute" {
		return e.ChildByField("attribute").Text()
	}
	return e.Text()
}

// maxWidthSteps bounds one query's frames and reads: a network too
// large to read within it is not known to be narrow.
const maxWidthSteps = 4000

// maxShownNesting bounds how deep shownLarge follows networks into the
// networks they build or are handed.
const maxShownNesting = 32

// enter returns the frame of def (a class, function or torch.nn call in
// m) built or called by call in fr; nil past the depth bound.
func (fr *widthFrame) enter(m *rewrite.Model, def, call *rewrite.Node) *widthFrame {
	depth := 0
	for f := fr; f != nil; f = f.caller {
		if f.def == def && f.m == m {
			return nil // recursion
		}
		depth++
	}
	if depth > 8 {
		return nil
	}
	return &widthFrame{m: m, def: def, call: call, caller: fr, walk: fr.walk}
}

// initFunc is the function whose parameters the frame's call binds: the
// class's __init__, or the function itself.
func (fr *widthFrame) initFunc() *rewrite.Node {
	if fr.def == nil {
		return nil
	}
	switch fr.def.Type {
	case "class_definition":
		return rewrite.MethodOf(fr.def, "__init__")
	case "function_definition":
		return fr.def
	}
	return nil
}

// argument returns the expression a parameter of the frame's function
// takes and the frame to read it in: the call's argument in the caller's
// frame, else the parameter's default in this one. ok is false when
// param is not the frame's, or the value is not known.
func (fr *widthFrame) argument(param *rewrite.Node) (expr *rewrite.Node, in *widthFrame, mine, ok bool) {
	fn := fr.initFunc()
	if fn == nil || fr.call == nil || paramOwner(param) != fn {
		return nil, nil, false, false
	}
	if a := rewrite.ArgumentFor(fn, fr.call, param); a != nil {
		return a, fr.caller, true, true
	}
	if args := fr.call.ChildByField("arguments"); args != nil && slices.ContainsFunc(args.NamedChildren(), func(a *rewrite.Node) bool {
		return a.Is("list_splat", "dictionary_splat")
	}) {
		return nil, nil, true, false // `Net(*sizes)`: which argument is which is not shown
	}
	if p := param.Parent; p != nil && p.Is("default_parameter", "typed_default_parameter") {
		if v := p.ChildByField("value"); v != nil {
			return v, fr, true, true
		}
	}
	return nil, nil, true, false
}

// paramFrame returns the frame among fr and its callers whose function
// binds param.
func (fr *widthFrame) paramFrame(param *rewrite.Node) *widthFrame {
	for f := fr; f != nil; f = f.caller {
		if fn := f.initFunc(); fn != nil && f.call != nil && paramOwner(param) == fn {
			return f
		}
	}
	return nil
}

// paramOwner returns the function (or lambda) whose parameter list holds
// the parameter identifier param.
func paramOwner(param *rewrite.Node) *rewrite.Node {
	for n := param.Parent; n != nil; n = n.Parent {
		if n.Type == "parameters" || n.Type == "lambda_parameters" {
			return n.Parent
		}
		if rewrite.IsDefOrLambda(n) || n.Type == "block" {
			return nil
		}
	}
	return nil
}

// narrowNetwork returns the gate for the networks the statements call:
// it applies when every one of them is built, in this file or another
// module of the project, only from linear, convolutional and small
// attention layers of known width (besides activations, norms, pooling and
// containers), the widest narrowWidth or less.
func narrowNetwork(p *Pass, stmts []*rewrite.Node) narrowGate {
	return networkWidth(p, stmts, &widthWalk{gan: ganScript(p)})
}

// toyModel is toyNetwork for the network model names, read where it is
// built: the model a helper runs (`g_train(x)` calling the module's
// gen_model), which the statement calling the helper does not show.
func toyModel(p *Pass, model *rewrite.Node) bool {
	if b, ok := loaderBatch(p); ok && b > toyBatch {
		return false // a larger batch fills the GPU's matmuls
	}
	nets, _ := networksOf(&widthFrame{m: p.Model, walk: &widthWalk{toy: true}}, model, 0)
	if len(nets) == 0 {
		return false
	}
	for _, net := range nets {
		if w, known := widestLayer(net); !known || w == 0 {
			return false
		}
	}
	return true
}

// toyNetwork reports statements that run only toy networks
// (widthWalk.toy): a CPU runs their steps as fast as a GPU.
func toyNetwork(p *Pass, stmts []*rewrite.Node) bool {
	if b, ok := loaderBatch(p); ok && b > toyBatch {
		return false // a larger batch fills the GPU's matmuls
	}
	return networkWidth(p, stmts, &widthWalk{toy: true}).width > 0
}

// networkWidth is narrowNetwork with the walk's thresholds.
func networkWidth(p *Pass, stmts []*rewrite.Node, walk *widthWalk) narrowGate {
	var g narrowGate
	ok := calledNetworks(p, stmts, walk, func(nets []*widthFrame, name string) bool {
		for _, net := range nets {
			w, known := narrowWidthOf(net)
			if !known {
				return false
			}
			g.width = max(g.width, w)
		}
		g.attention = g.attention || walk.attention
		if g.class == "" {
			g.class = name
		}
		return true
	})
	if !ok {
		return narrowGate{}
	}
	return g
}

// narrowWidthOf is widestLayer for the narrow gate: not known for a
// network whose lookup table and open-sided linear layer may make a
// language model's output layer as wide as its vocabulary.
func narrowWidthOf(net *widthFrame) (int, bool) {
	net.walk.tables, net.walk.openSide = false, false
	w, known := widestLayer(net)
	if !known || net.walk.tables && net.walk.openSide {
		return 0, false
	}
	return w, true
}

// narrowTraining reports a file whose training steps (trainedNetworks)
// run only narrow networks (narrowWidthOf): steps bound by their kernel
// launches, which neither TF32 nor torch.compile speeds up (0.75-1.05×
// and 0.47-0.89× on an MNIST MLP, LeNet, a 7-32-16-6 MLP and a GRU of
// 100 on an H100, corpus/gpu/narrow_gates.py, .notes/narrow-gates-h100.txt).
func narrowTraining(p *Pass) bool {
	return p.Memo("narrowTraining", func() any {
		top := &widthFrame{m: p.Model, walk: &widthWalk{gan: ganScript(p)}}
		nets, ok := trainedNetworks(p, top)
		if !ok {
			return false
		}
		for _, net := range nets {
			if _, narrow := narrowWidthOf(net); !narrow {
				return false
			}
		}
		return true
	}).(bool)
}

// narrowNetworkAt reports a module expression whose every network gpuopt
// reads (networksOf, through walk) is narrow (narrowWidthOf); false when
// none can be read.
func narrowNetworkAt(p *Pass, expr *rewrite.Node, walk *widthWalk) bool {
	nets, _ := networksOf(&widthFrame{m: p.Model, walk: walk}, expr, 0)
	if len(nets) == 0 {
		return false
	}
	for _, net := range nets {
		if _, narrow := narrowWidthOf(net); !narrow {
			return false
		}
	}
	return true
}

// calledNetworks hands visit the networks (networksOf's frames, and the
// name the message gives them) of each module the statements call, in
// order, skipping losses; a method of a network (`self.policy.evaluate(...)`)
// counts as the network. It stops and reports false when a module's
// network cannot be read or visit returns false.
func calledNetworks(p *Pass, stmts []*rewrite.Node, walk *widthWalk, visit func(nets []*widthFrame, name string) bool) bool {
	top := &widthFrame{m: p.Model, walk: walk}
	ok := true
	for _, st := range stmts {
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
			nets, name := networksOf(top, fn, 0)
			ok = len(nets) > 0 && visit(nets, name)
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// castFree reports statements whose networks (every module called, read
// as networksOf reads them) build nothing autocast runs in half
// precision: embedding tables and parameters looked up and combined
// elementwise (a matrix-factorisation recommender), no linear,
// convolutional, recurrent or attention layer and no matmul. Autocast
// would cast nothing there, and TF32 has no matmul to speed up (blind
// sample MM judged AMP004 and AMP005 on such models false).
func castFree(p *Pass, stmts []*rewrite.Node) bool {
	seen := 0
	ok := calledNetworks(p, stmts, &widthWalk{}, func(nets []*widthFrame, _ string) bool {
		seen += len(nets)
		return !slices.ContainsFunc(nets, func(n *widthFrame) bool { return !lookupsOnly(n) })
	})
	return ok && seen > 0
}

// lookupsOnly reports a network frame whose code builds embeddings or
// parameters and calls nothing autocast or TF32 would run faster: no
// torch.nn layer but embeddings, dropout, activations and normalisation,
// no torch matmul, no `@`, no call of a class or function of the
// project (it might build a layer) and no other library's callable.
func lookupsOnly(fr *widthFrame) bool {
	embeds, ok := false, true
	fr.def.Walk(func(n *rewrite.Node) bool {
		if !ok {
			return false
		}
		if n.Type == "binary_operator" {
			if o := n.ChildByField("operator"); o != nil && o.Text() == "@" {
				ok = false
			}
			return ok
		}
		if n.Type != "call" {
			return true
		}
		q := fr.m.CalleeName(n)
		switch {
		case q == "torch.nn.Embedding", q == "torch.nn.EmbeddingBag", q == "torch.nn.Parameter", q == "torch.nn.parameter.Parameter":
			embeds = true
		case q == "" || pythonBuiltins[q] || strings.HasPrefix(q, "torch.nn.init.") || strings.HasPrefix(q, "torch.nn.functional.") && !matmulLayers[q]:
		case q == "torch.nn.Dropout", q == "torch.nn.Sigmoid", q == "torch.nn.ReLU", q == "torch.nn.Tanh", q == "torch.nn.LayerNorm", q == "torch.nn.BatchNorm1d":
		case strings.HasPrefix(q, "torch.nn.") || matmulLayers[q]:
			ok = false
		case strings.HasPrefix(q, "torch."):
			// Tensor functions (torch.zeros, torch.sum, torch.mul):
			// elementwise or reductions, not matmuls (those are in
			// matmulLayers).
		default:
			ok = false // another library, or a class or function of the project
		}
		return ok
	})
	return ok && embeds
}

// networksOf returns the frames of what builds the networks a model
// expression read in fr may be (through `.to(...)`-style chains), one per
// origin: classes of this file or of another project module, or
// torch.nn containers or layers built in place (`model =
// nn.Sequential(nn.Linear(2, 100), ...)`, again in a later notebook cell),
// with the name the message gives them; nil when any origin is something
// else.
func networksOf(fr *widthFrame, model *rewrite.Node, depth int) ([]*widthFrame, string) {
	if depth > 4 {
		return nil, ""
	}
	var out []*widthFrame
	name := ""
	add := func(nets []*widthFrame, n string) bool {
		if len(nets) == 0 {
			return false
		}
		out = append(out, nets...)
		if name == "" {
			name = n
		}
		return true
	}
	if model.Type == "identifier" {
		if b := fr.m.Binding(model); b != nil && b.Kind == rewrite.ParamBinding {
			if f := fr.paramFrame(b.Ident); f != nil {
				// A module handed to the class that wraps it
				// (`EncoderWithHead(encoder=SimpleNet(...))`): what the
				// building call passed.
				a, in, _, ok := f.argument(b.Ident)
				if !ok || !add(networksOf(in, a, depth+1)) {
					return nil, ""
				}
				return out, name
			}
		}
	}
	if model.Type == "call" {
		if !add(networkCall(fr, model)) {
			return nil, ""
		}
		return out, name
	}
	if model.Type == "identifier" {
		if nets, name, ok := factoryNetworks(fr, model); ok {
			return nets, name
		}
	}
	origins := fr.m.Origins(model)
	if fr.def == nil && model.Type == "identifier" && onlyParameter(fr, origins, model) {
		// A parameter of a module's training function that no call here
		// passes: the calls in the scripts that import it do
		// (`train_epoch(model, ...)` in mlp.py, run by run_train_*.py).
		origins = fr.m.OriginsAcross(model)
	}
	origins = takenOrigins(fr.m, origins)
	for _, o := range origins {
		e := o.Expr
		if o.Annotation {
			continue // `model: torch.nn.Module` says nothing of the layers
		}
		in := fr
		if o.Model != nil {
			in = &widthFrame{m: o.Model, walk: fr.walk} // found in another module: read it there
		}
		if l := unchainModuleMethods(e); l != nil && l.Type == "call" && in.m.CalleeName(l) == "torch.load" && len(origins) > 1 {
			// `model = torch.load(best_path)` beside `model = Net()`: a
			// resumed run of the same network (blind sample S40C's crypto
			// MLP). Alone it says nothing of the layers.
			continue
		}
		if o.Def != nil && !o.Def.Class && o.Call != nil && passesOwnTarget(o.Call) {
			continue // `model = train_model(model, ...)`: the model it was given, trained
		}
		if o.Def != nil && o.Call != nil {
			// An instance of a class of another project module.
			if !add(importedNetwork(in, o.Def, o.Call)) {
				return nil, ""
			}
			continue
		}
		if o.Model != nil && e != nil {
			if !add(networksOf(in, e, depth+1)) {
				return nil, ""
			}
			continue
		}
		if o.Param != nil && e == nil {
			if f := fr.paramFrame(o.Param); f != nil {
				a, in, _, ok := f.argument(o.Param)
				if !ok || !add(networksOf(in, a, depth+1)) {
					return nil, ""
				}
				continue
			}
		}
		if e == nil || o.Index >= 0 || o.Model != nil {
			return nil, ""
		}
		e = unchainModuleMethods(e)
		if wrapsItsOwnName(fr, e, model) {
			continue // `model = model.to(device)`: the name's other bindings are origins too
		}
		if e != nil && e.Type == "identifier" && e != model {
			// A parameter whose call sites pass models by name
			// (`train_step(model=model_1, ...)`): each of those.
			if !add(networksOf(fr, e, depth+1)) {
				return nil, ""
			}
			continue
		}
		if e == nil || e.Type != "call" || !add(networkCall(fr, e)) {
			return nil, ""
		}
	}
	return out, name
}

// onlyParameter reports origins of the name model that are its
// parameter's value, and besides it only rebindings that wrap the name
// (`model = model.to(device)` at the top of a training function: blind
// sample S40C's crypto MLP).
func onlyParameter(fr *widthFrame, origins []rewrite.Origin, model *rewrite.Node) bool {
	param := false
	for _, o := range origins {
		switch {
		case o.Param != nil && o.Expr == nil:
			param = true
		case o.Expr != nil && o.Model == nil && wrapsItsOwnName(fr, unchainModuleMethods(o.Expr), model):
		default:
			return false
		}
	}
	return param
}

// passesOwnTarget reports a call whose value is assigned to a name it
// also takes as an argument: `model = train_model(model, loader, ...)`,
// a function of the project that hands back the model it trained (blind
// sample S40C's GRU forecaster, whose size went unread through it).
func passesOwnTarget(call *rewrite.Node) bool {
	a := call.Parent
	if a == nil || a.Type != "assignment" || a.ChildByField("right") != call {
		return false
	}
	left := a.ChildByField("left")
	if left == nil || left.Type != "identifier" {
		return false
	}
	args := call.ChildByField("arguments")
	if args == nil {
		return false
	}
	for _, arg := range args.NamedChildren() {
		if arg.Type == "keyword_argument" {
			arg = arg.ChildByField("value")
		}
		if arg != nil && arg.Type == "identifier" && arg.Text() == left.Text() {
			return true
		}
	}
	return false
}

// takenOrigins drops the origins built on a branch the script's default
// run does not take (offDefaultBranch: `if base_model == "resnet18":` where
// every call passes "lenet"), unless that would drop them all.
func takenOrigins(m *rewrite.Model, origins []rewrite.Origin) []rewrite.Origin {
	var kept []rewrite.Origin
	for _, o := range origins {
		if o.Model == nil && o.Expr != nil && offDefaultBranch(m, o.Expr) {
			continue
		}
		kept = append(kept, o)
	}
	if len(kept) == 0 {
		return origins
	}
	return kept
}

// factoryNetworks reads a name every assignment of which calls a
// function of this module that builds the network (`def
// make_generator(n_hidden=100): model = nn.Sequential() ...
// model.add_module(...) ... return model`, then `gen = make_generator(
// n_hidden=h).to(device)`): the function's frame with each call, whose
// arguments its layers read (blind sample S17C's textbook GANs). ok is
// false when the name is not bound that way.
func factoryNetworks(fr *widthFrame, model *rewrite.Node) (nets []*widthFrame, name string, ok bool) {
	bs := fr.m.Bindings(model)
	if len(bs) == 0 {
		return nil, "", false
	}
	for _, b := range bs {
		call := unchainModuleMethods(rewrite.AssignedValue(b))
		if call == nil || call.Type != "call" {
			return nil, "", false
		}
		fn := call.ChildByField("function")
		if fn == nil || fn.Type != "identifier" {
			return nil, "", false
		}
		d := fr.m.Binding(fn)
		if d == nil || d.Kind != rewrite.DefBinding || d.Stmt == nil || d.Stmt.Type != "function_definition" || d.Stmt.Parent == nil || d.Stmt.Parent.Type != "module" {
			return nil, "", false
		}
		f := fr.enter(fr.m, d.Stmt, call)
		if f == nil {
			return nil, "", true // recursion: no network read
		}
		nets = append(nets, f)
		if name == "" {
			name = d.Name
		}
	}
	return nets, name, true
}

// wrapsItsOwnName reports an origin of the name model that wraps the
// name's earlier value: `model = model.to(device)` (e unchained to
// `model`), `model = nn.DataParallel(model)`,
// `model = nn.SyncBatchNorm.convert_sync_batchnorm(model)`.
func wrapsItsOwnName(fr *widthFrame, e, model *rewrite.Node) bool {
	if e == nil || model.Type != "identifier" {
		return false
	}
	if e.Type == "call" && strings.HasPrefix(fr.m.CalleeName(e), "torch.nn.") {
		if a := rewrite.PositionalArgs(e); len(a) > 0 {
			e = a[0]
		}
	}
	return e.Type == "identifier" && e.Text() == model.Text()
}

// networkCall is the frame of a call that builds a network: a torch.nn
// layer or container, a class of this file, or one imported from the
// project; nil otherwise.
func networkCall(fr *widthFrame, call *rewrite.Node) ([]*widthFrame, string) {
	call = unchainModuleMethods(call)
	if call == nil || call.Type != "call" {
		return nil, ""
	}
	if q := fr.m.CalleeName(call); strings.HasPrefix(q, "torch.nn.") && !strings.Contains(q, ".functional.") {
		if f := fr.enter(fr.m, call, nil); f != nil {
			return []*widthFrame{f}, q[strings.LastIndexByte(q, '.')+1:]
		}
		return nil, ""
	}
	fn := call.ChildByField("function")
	if fn == nil {
		return nil, ""
	}
	if fn.Type == "identifier" {
		if b := fr.m.Binding(fn); b != nil && b.Kind == rewrite.ClassBinding {
			if f := fr.enter(fr.m, b.Stmt, call); f != nil {
				return []*widthFrame{f}, b.Stmt.ChildByField("name").Text()
			}
			return nil, ""
		}
	}
	if d := fr.m.ImportedDef(fn); d != nil && d.Class {
		return importedNetwork(fr, d, call)
	}
	return nil, ""
}

// importedNetwork is the frame of a class of another project module built
// by call in fr.
func importedNetwork(fr *widthFrame, d *rewrite.ProjectDef, call *rewrite.Node) ([]*widthFrame, string) {
	if !d.Class {
		return nil, ""
	}
	fm, node := fr.m.DefinitionOf(d)
	if node == nil || node.Type != "class_definition" {
		return nil, ""
	}
	if f := fr.enter(fm, node, call); f != nil {
		return []*widthFrame{f}, d.Name
	}
	return nil, ""
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

// widestLayer returns the widest linear or convolutional layer the
// frame's class, function or torch.nn call builds, itself or through the
// classes and functions it calls (of its module or imported from the
// project) and the networks its building call hands it. known is false
// when a layer's width is not a number the code shows, or when the code
// builds anything else that may be wide: another library's network, an
// attention or recurrent layer, a callable passed in.
func widestLayer(fr *widthFrame) (width int, known bool) {
	width, layers, known := layersOf(fr)
	return width, known && layers > 0
}

// layersOf is widestLayer's walk: the widest layer, how many layers, and
// whether every one is known (a helper that builds none is known, with 0).
func layersOf(fr *widthFrame) (width, layers int, known bool) {
	known = true
	m := fr.m
	conv := 0 // whether fr.def builds a convolution, read once: 1 no, 2 yes
	convolutionalDef := func() bool {
		if conv == 0 {
			conv = 1
			if convolutional(m, fr.def) {
				conv = 2
			}
		}
		return conv == 2
	}
	visit := func(sub *widthFrame) bool {
		if sub == nil {
			known = false
			return false
		}
		w, n, ok := layersOf(sub)
		if !ok {
			known = false
			return false
		}
		width = max(width, w)
		layers += n
		return true
	}
	walker := func(n *rewrite.Node) bool {
		if !known {
			return false
		}
		if fr.walk.steps++; fr.walk.steps > maxWidthSteps {
			known = false
			return false
		}
		if n.Type == "parameters" {
			return false // defaults (`std=np.sqrt(2)`) build no layer
		}
		if n.Type == "call" && !fr.walk.attention && attends(fr, n) {
			fr.walk.attention = true
		}
		if n.Type == "binary_operator" && n.ChildByField("operator").Text() == "@" {
			if convolutionalDef() {
				known = false // attention over positions, as torch.bmm below
				return false
			}
			if mentionsWeight(n) {
				fr.walk.openSide = true // `h @ self.embed.weight.T`
			}
		}
		if n.Type != "call" {
			return true
		}
		q := m.CalleeName(n)
		if fr.walk.toy {
			switch q {
			case "torch.nn.Linear":
				// Both sides known and small, or one a size read at run
				// time (a vocabulary) beside a tiny other side.
				out, outOK := intBound(fr, rewrite.Arg(n, 1, "out_features"), 0)
				in, inOK := intBound(fr, rewrite.Arg(n, 0, "in_features"), 0)
				switch {
				case inOK && outOK && in*out <= toyMACs:
				case inOK != outOK && max(in, out) <= toySide:
				default:
					known = false
					return false
				}
				layers++
				width = max(width, in, out, 1)
				return false
			case "torch.nn.Parameter", "torch.nn.parameter.Parameter":
				// A bias-like vector of any length; a matrix as a
				// linear layer's weight.
				data := rewrite.Arg(n, 0, "data")
				if data == nil || data.Type != "call" || !tensorFactories[m.CalleeName(data)] {
					known = false
					return false
				}
				dims := rewrite.PositionalArgs(data)
				size, unknown := 1, 0
				for _, d := range dims {
					if v, ok := intBound(fr, d, 0); ok {
						size *= v
					} else {
						unknown++
					}
				}
				if len(dims) > 1 && (unknown > 1 || unknown == 1 && size > toySide || size > toyMACs) {
					known = false
				}
				return false
			case "torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN":
				in, inOK := intBound(fr, rewrite.Arg(n, 0, "input_size"), 0)
				hidden, hOK := intBound(fr, rewrite.Arg(n, 1, "hidden_size"), 0)
				if !hOK || hidden > toyWidth || inOK && in > toyWidth || !inOK && hidden > toySide {
					known = false
					return false
				}
				layers++
				width = max(width, in, hidden)
				return false
			case "torch.nn.Embedding":
				d, ok := intBound(fr, rewrite.Arg(n, 1, "embedding_dim"), 0)
				if !ok || d > toyWidth {
					known = false
				}
				return false // a lookup, whatever the vocabulary
			}
			if _, conv := layerWidthArg[q]; conv || strings.HasPrefix(q, "torch.nn.Transformer") || q == "torch.nn.MultiheadAttention" {
				known = false
				return false
			}
		}
		if q == "torch.nn.Linear" {
			// Narrow when in × out is small; when one side is a size
			// the code takes at run time (PPO's state_dim, an
			// environment's observation size), when the other is
			// narrowLinearSide or less.
			out, outOK := intBound(fr, rewrite.Arg(n, 1, "out_features"), 0)
			in, inOK := intBound(fr, rewrite.Arg(n, 0, "in_features"), 0)
			switch {
			case inOK && outOK && in*out <= narrowLinearMACs:
			case inOK && outOK && in*out <= ganLinearMACs && fr.walk.gan:
			case outOK && out <= narrowLinearSide && !inOK, inOK && in <= narrowLinearSide && !outOK:
				fr.walk.openSide = true
			case outOK && out <= countedLinearSide && !inOK && columnCount(n, 0, "in_features"),
				inOK && in <= countedLinearSide && !outOK && columnCount(n, 1, "out_features"):
				fr.walk.openSide = true
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
			return false // its arguments are sizes, read above
		}
		if graphConvolution(q) {
			// A message-passing layer of PyG or DGL: a linear map of
			// every node's features, then a scatter over the edges. Narrow
			// when both sides are narrowWidth or less, or one is read at
			// run time (the dataset's feature or class count) beside a
			// narrow other (blind samples S37L's 32-wide GCN, S34's 64-wide
			// MatDeepLearn and DeeperGCN).
			in, inOK := intBound(fr, firstArg(n, 0, "in_channels", "in_feats"), 0)
			out, outOK := intBound(fr, firstArg(n, 1, "out_channels", "out_feats"), 0)
			if h := firstArg(n, -1, "heads", "num_heads"); h != nil {
				heads, ok := intBound(fr, h, 0)
				if !ok {
					known = false
					return false
				}
				out *= heads
			}
			switch {
			case inOK && outOK && max(in, out) <= narrowWidth:
			case inOK && !outOK && in <= narrowWidth, outOK && !inOK && out <= narrowWidth:
				fr.walk.openSide = true
			default:
				known = false
				return false
			}
			layers++
			width = max(width, in, out)
			return false
		}
		if a, ok := layerWidthArg[q]; ok {
			w, ok := intBound(fr, rewrite.Arg(n, a.pos, a.keyword), 0)
			if !ok && fr.walk.gan && strings.HasPrefix(q, "torch.nn.ConvTranspose") {
				// A GAN generator's output layer, to the image's
				// channels read from the data (`data.shape[1]`): its
				// input side is what sizes it.
				w, ok = intBound(fr, rewrite.Arg(n, 0, "in_channels"), 0)
			}
			if !ok || w > narrowWidth {
				known = false
				return false
			}
			layers++
			width = max(width, w)
			return false
		}
		if recurrentLayer(q) {
			// Narrow when its hidden state is narrowRecurrentHidden or
			// less and its input no wider (or a size read at run time,
			// a table's feature count).
			hidden, hOK := intBound(fr, rewrite.Arg(n, 1, "hidden_size"), 0)
			in, inOK := intBound(fr, rewrite.Arg(n, 0, "input_size"), 0)
			if !hOK || hidden > narrowRecurrentHidden || inOK && in > narrowRecurrentHidden {
				known = false
				return false
			}
			layers++
			width = max(width, hidden, in)
			return false
		}
		if q == "torch.nn.Embedding" {
			// A vocabulary: a language model's output layer is as wide
			// as it, often through a size read at run time, and gains
			// from bf16 however narrow the rest is.
			v, ok := intBound(fr, rewrite.Arg(n, 0, "num_embeddings"), 0)
			if !ok || v > smallVocabulary {
				fr.walk.tables = true
			}
			return false
		}
		if weightProduct(m, n, q) {
			fr.walk.openSide = true
		}
		if matmulLayers[q] && !strings.HasPrefix(q, "torch.nn.") && convolutionalDef() {
			// torch.bmm of a convolutional block: attention over every
			// pair of positions (SAGAN's), of a size no width shows.
			known = false
			return false
		}
		if q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter" {
			// A weight used by hand (`F.linear(x, self.weight)`): its
			// shape is the layer's.
			w, ok := parameterWidth(fr, rewrite.Arg(n, 0, "data"))
			if !ok {
				known = false
				return false
			}
			layers++
			width = max(width, w)
			return false
		}
		if w, ok, attention := attentionWidth(fr, n, q); attention {
			if !ok {
				known = false
				return false
			}
			layers++
			width = max(width, w)
			return false
		}
		if d := m.CalledDef(n); d != nil {
			if d.Type == "function_definition" && d.ChildByField("name").Text() == "__init__" {
				d = enclosingClass(d)
			}
			if d == nil || !d.Is("function_definition", "class_definition") {
				known = false
				return false
			}
			return visit(fr.enter(m, d, n))
		}
		fn := n.ChildByField("function")
		if b := m.Binding(fn); fn != nil && fn.Type == "identifier" && b != nil && b.Kind == rewrite.ClassBinding &&
			b.Stmt != nil && b.Stmt.Type == "class_definition" {
			// A class of this module with no __init__ of its own (an
			// activation module: NewGELUActivation's forward alone).
			return visit(fr.enter(m, b.Stmt, n))
		}
		if d := m.ImportedDef(fn); d != nil {
			// A block or a helper of another project module.
			fm, node := m.DefinitionOf(d)
			if node == nil {
				known = false
				return false
			}
			return visit(fr.enter(fm, node, n))
		}
		switch {
		case q == "":
			// A call of a name this file does not resolve: a method of a
			// value (`layers.append`, `x.view`) is harmless, a bare name
			// may build anything, unless it is a network the building
			// call handed over (`self.encoder = encoder`).
			if fn != nil && fn.Type == "identifier" && !elementOfOwnContainer(m, fn) {
				known = false
			}
		case !strings.HasPrefix(q, "torch.") && !strings.Contains(q, "."),
			strings.HasPrefix(q, "numpy."), strings.HasPrefix(q, "math."):
			// builtins (super, range, len, int, ...) and arithmetic
		case q == "torch.nn.TransformerEncoder" || q == "torch.nn.TransformerDecoder":
			// A stack of the layer passed first: built here (walked as an
			// argument) or named (followed to its value).
			layer := rewrite.Arg(n, 0, "encoder_layer")
			if q == "torch.nn.TransformerDecoder" {
				layer = rewrite.Arg(n, 0, "decoder_layer")
			}
			if layer != nil && layer.Type == "identifier" {
				v := m.ValueOf(layer)
				if v == nil || v.Type != "call" {
					known = false
					return false
				}
				w, ok, attention := attentionWidth(fr, v, m.CalleeName(v))
				if !attention || !ok {
					known = false
					return false
				}
				layers++
				width = max(width, w)
			}
		case !strings.HasPrefix(q, "torch."),
			strings.HasPrefix(q, "torch.nn.Transformer"):
			known = false
		}
		return known
	}
	fr.def.Walk(walker)
	for _, added := range addedLayers(fr) {
		if known {
			added.Walk(walker)
		}
	}
	// handed walks the networks an argument of a building call names.
	handed := func(in *widthFrame, a *rewrite.Node) {
		nets, _ := networksOf(in, a, 0)
		if len(nets) == 0 {
			known = false
		}
		for _, net := range nets {
			if !visit(net) {
				return
			}
		}
	}
	if known && fr.def.Type == "call" {
		// A container or wrapper built in place around networks built
		// before it (`nn.DataParallel(model)`, `nn.Sequential(backbone,
		// head)`): theirs.
		for _, a := range rewrite.PositionalArgs(fr.def) {
			if known && a.Is("identifier", "attribute") {
				handed(fr, a)
			}
		}
	}
	if known && fr.def.Type == "class_definition" {
		// The networks the building call hands the class: each
		// parameter its __init__ keeps or runs as a module.
		for _, param := range moduleParams(m, fr.def) {
			if !known {
				break
			}
			if a, in, _, ok := fr.argument(param); ok {
				handed(in, a)
			} else {
				known = false
			}
		}
	}
	return width, layers, known
}

// convolutional reports a definition that builds a convolution.
func convolutional(m *rewrite.Model, def *rewrite.Node) bool {
	found := false
	def.Walk(func(n *rewrite.Node) bool {
		if n.Type == "call" && strings.HasPrefix(m.CalleeName(n), "torch.nn.Conv") {
			found = true
		}
		return !found
	})
	return found
}

// weightProduct reports a matrix product with a layer's weight read by
// hand: `F.linear(h, self.embed.weight)`, `torch.matmul(h,
// self.emb.weight.t())`; a tied output layer is one.
func weightProduct(m *rewrite.Model, call *rewrite.Node, q string) bool {
	switch q {
	case "torch.nn.functional.linear", "torch.matmul", "torch.mm", "torch.bmm", "torch.einsum":
	default:
		if fn := call.ChildByField("function"); fn == nil || fn.Type != "attribute" || !fn.ChildByField("attribute").Is("identifier") ||
			!slices.Contains([]string{"matmul", "mm", "bmm"}, fn.ChildByField("attribute").Text()) {
			return false
		}
	}
	return mentionsWeight(call.ChildByField("arguments"))
}

// mentionsWeight reports an expression that reads a `.weight`.
func mentionsWeight(e *rewrite.Node) bool {
	found := false
	e.Walk(func(n *rewrite.Node) bool {
		if n.Type == "attribute" && n.ChildByField("attribute").Text() == "weight" {
			found = true
		}
		return !found
	})
	return found
}

// moduleParams returns the parameters of a class's __init__ that it runs
// as modules: called, kept on self and called through it (`self.encoder =
// encoder` ... `self.encoder(x)`), or put in a torch.nn container.
func moduleParams(m *rewrite.Model, class *rewrite.Node) []*rewrite.Node {
	init := rewrite.MethodOf(class, "__init__")
	if init == nil {
		return nil
	}
	params := init.ChildByField("parameters")
	if params == nil {
		return nil
	}
	kept := map[string]*rewrite.Node{} // self attribute -> parameter
	var out []*rewrite.Node
	isParam := func(n *rewrite.Node) *rewrite.Node {
		if n == nil || n.Type != "identifier" {
			return nil
		}
		b := m.Binding(n)
		if b == nil || b.Kind != rewrite.ParamBinding || b.Stmt != init {
			return nil
		}
		return b.Ident
	}
	addParam := func(p *rewrite.Node) {
		if p != nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	init.Walk(func(n *rewrite.Node) bool {
		switch n.Type {
		case "assignment":
			l, r := n.ChildByField("left"), n.ChildByField("right")
			if p := isParam(r); p != nil && l != nil && l.Type == "attribute" && l.ChildByField("object").Text() == "self" {
				kept[l.ChildByField("attribute").Text()] = p
			}
		case "call":
			if p := isParam(n.ChildByField("function")); p != nil {
				addParam(p)
			}
			if q := m.CalleeName(n); strings.HasPrefix(q, "torch.nn.Module") || strings.HasPrefix(q, "torch.nn.Sequential") {
				for _, a := range rewrite.PositionalArgs(n) {
					addParam(isParam(a))
				}
			}
		}
		return true
	})
	if len(kept) > 0 {
		class.Walk(func(n *rewrite.Node) bool {
			if n.Type != "call" {
				return true
			}
			fn := n.ChildByField("function")
			if fn != nil && fn.Type == "attribute" && fn.ChildByField("object").Text() == "self" {
				addParam(kept[fn.ChildByField("attribute").Text()])
			}
			return true
		})
	}
	return out
}

// tensorFactories build a tensor of the shape their positional arguments
// give.
var tensorFactories = map[string]bool{"torch.randn": true, "torch.rand": true, "torch.zeros": true, "torch.ones": true,
	"torch.empty": true, "torch.Tensor": true, "torch.FloatTensor": true}

// parameterWidth measures a weight built by hand, `nn.Parameter(torch.randn(out, in))`:
// its widest side, when every side is known and their product is no
// larger than narrowLinearMACs.
func parameterWidth(fr *widthFrame, data *rewrite.Node) (int, bool) {
	if data == nil || data.Type != "call" || !tensorFactories[fr.m.CalleeName(data)] {
		return 0, false
	}
	dims := rewrite.PositionalArgs(data)
	if len(dims) == 0 {
		return 0, false
	}
	if len(dims) >= 3 && dims[0].Type == "integer" && dims[0].Text() == "1" {
		// `torch.randn(1, num_patches + 1, hidden)`: a token or position
		// embedding added to the activations (a ViT's class token), no
		// matmul weight: its feature side is the last.
		v, ok := intBound(fr, dims[len(dims)-1], 0)
		return v, ok && v <= narrowWidth
	}
	widest, size := 0, 1
	for _, d := range dims {
		v, ok := intBound(fr, d, 0)
		if !ok {
			return 0, false
		}
		widest, size = max(widest, v), size*v
	}
	return widest, size <= narrowLinearMACs
}

// attentionWidth measures an attention layer: nn.MultiheadAttention of
// embed_dim, nn.TransformerEncoderLayer / DecoderLayer of d_model and
// dim_feedforward (2048 when not given). ok: narrow (a model dimension of
// narrowWidth or less and a feed-forward of 2048 or less: encoders of d
// 64 with PyTorch's default 2048 ran 0.83-0.94× with bf16 autocast and
// 0.98-1.03× with TF32 up to 16k tokens a step on an H100,
// corpus/gpu/amp004_narrow.py transformer,
// .notes/amp004-transformer-h100.txt); attention: q is such a layer.
func attentionWidth(fr *widthFrame, call *rewrite.Node, q string) (width int, ok, attention bool) {
	switch q {
	case "torch.nn.MultiheadAttention":
		d, known := intBound(fr, rewrite.Arg(call, 0, "embed_dim"), 0)
		return d, known && d <= narrowWidth, true
	case "torch.nn.TransformerEncoderLayer", "torch.nn.TransformerDecoderLayer":
		d, known := intBound(fr, rewrite.Arg(call, 0, "d_model"), 0)
		ff, ffKnown := 2048, true
		if a := rewrite.Arg(call, 2, "dim_feedforward"); a != nil {
			ff, ffKnown = intBound(fr, a, 0)
		}
		return d, known && ffKnown && d <= narrowWidth && ff <= narrowFeedForward, true
	}
	return 0, false, false
}

// narrowFeedForward is the widest feed-forward of a narrow attention
// layer: PyTorch's default dim_feedforward (see attentionWidth).
const narrowFeedForward = 2048

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

// intBound returns the largest value an integer expression read in fr
// takes: a literal; a parameter of the frame's function, through what the
// building call passed; a name whose every origin (assignments, the
// arguments of its function's call sites, its default) is one; a
// command-line flag's default; a sum or product of such. For a list (and
// an element of one, `sizes[i]`, and `[w] * n`) it is the largest element.
// ok is false when any value is unknown.
func intBound(fr *widthFrame, expr *rewrite.Node, depth int) (int, bool) {
	if expr == nil || fr == nil || depth > 12 {
		return 0, false
	}
	if fr.walk.steps++; fr.walk.steps > maxWidthSteps {
		return 0, false
	}
	switch expr.Type {
	case "integer":
		return intLiteralText(expr.Text())
	case "parenthesized_expression":
		if c := expr.NamedChildren(); len(c) == 1 {
			return intBound(fr, c[0], depth+1)
		}
		return 0, false
	case "list", "tuple":
		best, n := 0, 0
		for _, c := range expr.NamedChildren() {
			if c.Type == "comment" {
				continue
			}
			v, ok := intBound(fr, c, depth+1)
			if !ok {
				return 0, false
			}
			best, n = max(best, v), n+1
		}
		return best, n > 0
	case "subscript":
		if idx := expr.ChildByField("subscript"); idx != nil && idx.Type == "slice" {
			return 0, false
		}
		if v, ok, known := dictField(fr, expr, depth); known {
			return v, ok
		}
		return intBound(fr, expr.ChildByField("value"), depth+1)
	case "conditional_expression":
		c := expr.NamedChildren()
		if len(c) != 3 {
			return 0, false
		}
		a, aok := intBound(fr, c[0], depth+1)
		b, bok := intBound(fr, c[2], depth+1)
		return max(a, b), aok && bok
	case "call":
		switch fr.m.CalleeName(expr) {
		case "int":
			if a := rewrite.PositionalArgs(expr); len(a) == 1 {
				return intBound(fr, a[0], depth+1)
			}
		case "numpy.prod", "math.prod":
			if a := rewrite.PositionalArgs(expr); len(a) == 1 {
				return intProduct(fr, a[0], depth+1)
			}
		}
		if v, ok, search := searchSpaceBound(fr, expr, depth); search {
			return v, ok
		}
		return 0, false
	case "binary_operator":
		left, right := expr.ChildByField("left"), expr.ChildByField("right")
		op := expr.ChildByField("operator")
		if op == nil {
			return 0, false
		}
		if left != nil && right != nil && (left.Type == "list" || right.Type == "list") {
			// `[w] * n` repeats elements; `[a] + [b]` joins lists.
			switch {
			case op.Text() == "*" && left.Type == "list":
				return intBound(fr, left, depth+1)
			case op.Text() == "*" && right.Type == "list":
				return intBound(fr, right, depth+1)
			case op.Text() == "+":
				l, lok := intBound(fr, left, depth+1)
				r, rok := intBound(fr, right, depth+1)
				return max(l, r), lok && rok
			}
			return 0, false
		}
		l, lok := intBound(fr, left, depth+1)
		r, rok := intBound(fr, right, depth+1)
		if !lok || !rok {
			return 0, false
		}
		switch op.Text() {
		case "+":
			return l + r, true
		case "-":
			// At most l less the least value r takes: a literal, or a
			// counter of range() that starts at 0 (`num_layers - i`).
			if least, ok := intFloor(fr, right); ok {
				return l - least, true
			}
			return 0, false
		case "*":
			return l * r, true
		case "//":
			if right.Type == "integer" && r > 0 {
				return l / r, true // an exact divisor: (input_size // 4)
			}
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
		if expr.Type == "attribute" && expr.ChildByField("attribute").Text() == "n" && strings.HasSuffix(expr.ChildByField("object").Text(), "action_space") {
			// A Gym environment's discrete action count: at most 18,
			// Atari's full action set, in the code AMP004 reads.
			return atariActions, true
		}
		if expr.Type == "identifier" {
			if last, ok := rangeCounter(fr.m, expr); ok {
				// `for i in range(n)`: i is at most n - 1.
				v, ok := intBound(fr, last, depth+1)
				return v - 1, ok
			}
			if seq, ok := loopElement(fr.m, expr); ok {
				// `for h in hidden: layers.append(nn.Linear(prev, h))`
				// with hidden=(256, 256, 128): at most the largest
				// (blind sample S20K's Jane Street MLPs).
				return intBound(fr, seq, depth+1)
			}
			if b := fr.m.Binding(expr); b != nil && b.Kind == rewrite.ParamBinding {
				if f := fr.paramFrame(b.Ident); f != nil {
					a, in, _, ok := f.argument(b.Ident)
					if !ok {
						return 0, false
					}
					return intBound(in, a, depth+1)
				}
			}
		}
		if v, ok, flag := flagDefault(fr, expr, depth); flag {
			return v, ok
		}
		if v, ok, known := configField(fr, expr, depth); known {
			return v, ok
		}
		if actionCountName.MatchString(lastName(expr)) && fr.m.ProjectSpells("import gym", "from gym", "import gymnasium", "from gymnasium") {
			// An agent's action count (`envs.num_actions` of a Mario PPO
			// whose environments a gym module builds: blind sample S17D):
			// as small as Gym's action spaces.
			return atariActions, true
		}
		origins := fr.m.Origins(expr)
		if len(origins) == 0 {
			return 0, false
		}
		best, n := 0, 0
		var params []*rewrite.Node
		for _, o := range origins {
			if o.Annotation {
				continue // `hidden_units: int`: the call sites' values decide
			}
			n++
			if o.Param != nil && o.Expr == nil {
				// A parameter of a frame up the chain, no call here
				// passing it: what the building call passed.
				f := fr.paramFrame(o.Param)
				if f == nil || slices.Contains(params, o.Param) {
					if f == nil {
						return 0, false
					}
					continue
				}
				params = append(params, o.Param)
				a, in, _, ok := f.argument(o.Param)
				if !ok {
					return 0, false
				}
				v, ok := intBound(in, a, depth+1)
				if !ok {
					return 0, false
				}
				best = max(best, v)
				continue
			}
			if o.Def != nil && o.Def.Var && o.Expr == nil {
				// A constant of a project module (`from .config import
				// HIDDEN_SIZE`: blind sample S32J's RUL LSTM), read there.
				dm, v := projectConstant(fr.m, o.Def)
				if v == nil {
					return 0, false
				}
				c, ok := intBound(&widthFrame{m: dm, walk: fr.walk}, v, depth+1)
				if !ok {
					return 0, false
				}
				best = max(best, c)
				continue
			}
			e := o.Expr
			if e != nil && o.Index >= 0 && e.Is("expression_list", "tuple") && o.Index < len(e.NamedChildren()) {
				e = e.NamedChildren()[o.Index] // `self.d_l, self.d_a = 30, 30`
			} else if o.Index >= 0 {
				return 0, false
			}
			if e == nil || e == expr || o.Model != nil {
				return 0, false
			}
			v, ok := intBound(fr, e, depth+1)
			if !ok {
				return 0, false
			}
			best = max(best, v)
		}
		return best, n > 0
	}
	return 0, false
}

// projectConstant returns the value a module-level constant of a project
// module is assigned (`HIDDEN_SIZE = 50`), with that module's model.
func projectConstant(m *rewrite.Model, d *rewrite.ProjectDef) (*rewrite.Model, *rewrite.Node) {
	dm := m.ModuleOf(d)
	if dm == nil {
		return nil, nil
	}
	bs := dm.Module.Bindings[d.Name]
	if len(bs) != 1 || bs[0].Kind != rewrite.AssignBinding || bs[0].Value == nil {
		return nil, nil
	}
	return dm, bs[0].Value
}

// rangeCounter reports a name bound only by `for name in range(...)`
// with a start of 0 and a positive step, and returns the range's end: the
// counter takes 0 up to end - 1.
func rangeCounter(m *rewrite.Model, id *rewrite.Node) (end *rewrite.Node, ok bool) {
	b := m.Binding(id)
	if b == nil || b.Kind != rewrite.LoopBinding || b.Stmt == nil || b.Stmt.Type != "for_statement" {
		return nil, false
	}
	if left := b.Stmt.ChildByField("left"); left == nil || left != b.Ident {
		return nil, false // a tuple target (`for i, x in ...`)
	}
	call := b.Stmt.ChildByField("right")
	if call == nil || call.Type != "call" || m.CalleeName(call) != "range" {
		return nil, false
	}
	args := rewrite.PositionalArgs(call)
	switch {
	case len(args) == 1 && len(call.ChildByField("arguments").NamedChildren()) == 1:
		return args[0], true
	case len(args) == 2 && args[0].Type == "integer" && args[0].Text() == "0":
		return args[1], true
	}
	return nil, false
}

// loopElement reports a name bound only by `for name in seq`, seq not a
// call (range counters are rangeCounter's), and returns seq.
func loopElement(m *rewrite.Model, id *rewrite.Node) (*rewrite.Node, bool) {
	b := m.Binding(id)
	if b == nil || b.Kind != rewrite.LoopBinding || b.Stmt == nil || b.Stmt.Type != "for_statement" {
		return nil, false
	}
	if left := b.Stmt.ChildByField("left"); left == nil || left != b.Ident {
		return nil, false
	}
	seq := b.Stmt.ChildByField("right")
	if seq == nil || !seq.Is("identifier", "attribute", "list", "tuple") {
		return nil, false
	}
	return seq, true
}

// intFloor returns the least value an integer expression takes, where it
// is plain: a literal, or a range() counter starting at 0.
func intFloor(fr *widthFrame, expr *rewrite.Node) (int, bool) {
	switch expr.Type {
	case "integer":
		return intLiteralText(expr.Text())
	case "identifier":
		if _, ok := rangeCounter(fr.m, expr); ok {
			return 0, true
		}
	}
	return 0, false
}

// configField reads `config.n_embd` where config is an instance of a
// configuration class of the same module (makemore's and nanoGPT's
// dataclasses): the keyword the construction passes, else the class's
// default (`n_embd: int = 64`). known is false when expr is no such
// field.
func configField(fr *widthFrame, expr *rewrite.Node, depth int) (v int, ok, known bool) {
	if expr.Type != "attribute" {
		return 0, false, false
	}
	obj := expr.ChildByField("object")
	if obj == nil || obj.Type != "identifier" {
		return 0, false, false
	}
	field := expr.ChildByField("attribute").Text()
	var class *rewrite.Node
	in := fr
	if call, at := constructionOf(fr, obj); call != nil {
		b := at.m.Binding(call.ChildByField("function"))
		if b == nil || b.Kind != rewrite.ClassBinding || b.Stmt == nil {
			return 0, false, false
		}
		if a := rewrite.KeywordValue(call, field); a != nil {
			v, ok := intBound(at, a, depth+1)
			return v, ok, true
		}
		class, in = b.Stmt, at
	} else if class = annotatedClass(fr.m, obj); class == nil {
		return 0, false, false
	}
	body := class.ChildByField("body")
	if body == nil {
		return 0, false, false
	}
	for _, st := range body.NamedChildren() {
		if st.Type != "expression_statement" || len(st.NamedChildren()) != 1 {
			continue
		}
		asg := st.NamedChildren()[0]
		if asg.Type != "assignment" || asg.ChildByField("left").Text() != field {
			continue
		}
		if r := asg.ChildByField("right"); r != nil {
			v, ok := intBound(&widthFrame{m: in.m, walk: fr.walk}, r, depth+1)
			return v, ok, true
		}
	}
	return 0, false, false
}

// annotatedClass returns the class of this module that a parameter's
// annotation names (`def train(config: TrainConfig)`, CORL's pyrallis
// entry point: blind sample S18R), or nil. Its fields' defaults are the
// configuration the code documents; a command line may override them.
func annotatedClass(m *rewrite.Model, id *rewrite.Node) *rewrite.Node {
	b := m.Binding(id)
	if b == nil || b.Kind != rewrite.ParamBinding || b.Ident == nil || b.Ident.Parent == nil {
		return nil
	}
	prm := b.Ident.Parent
	if prm.Type != "typed_parameter" && prm.Type != "typed_default_parameter" {
		return nil
	}
	t := prm.ChildByField("type")
	if t != nil && t.Type == "type" && len(t.NamedChildren()) == 1 {
		t = t.NamedChildren()[0]
	}
	if t == nil || t.Type != "identifier" {
		return nil
	}
	if cb := m.Binding(t); cb != nil && cb.Kind == rewrite.ClassBinding && cb.Stmt != nil && cb.Stmt.Type == "class_definition" {
		return cb.Stmt
	}
	return nil
}

// attends reports a call of fr that is attention: an attention or
// Transformer layer of torch.nn, scaled_dot_product_attention, or a
// softmax in a definition that also multiplies matrices (`q @ k.T`).
func attends(fr *widthFrame, call *rewrite.Node) bool {
	q := fr.m.CalleeName(call)
	switch {
	case q == "torch.nn.MultiheadAttention", strings.HasPrefix(q, "torch.nn.Transformer"),
		q == "torch.nn.functional.scaled_dot_product_attention":
		return true
	}
	fn := call.ChildByField("function")
	name := fn.Text()
	if fn.Type == "attribute" {
		name = fn.ChildByField("attribute").Text()
	}
	if name != "softmax" {
		return false
	}
	product := false
	fr.def.Walk(func(n *rewrite.Node) bool {
		switch {
		case product:
		case n.Type == "binary_operator" && n.ChildByField("operator").Text() == "@":
			product = true
		case n.Type == "call":
			switch fr.m.CalleeName(n) {
			case "torch.matmul", "torch.bmm", "torch.einsum", "torch.baddbmm":
				product = true
			}
		}
		return !product
	})
	return product
}

// elementOfOwnContainer reports a name bound by a loop over an attribute
// of self (`[head(x) for head in self.heads]`): a module of a container
// the class fills, whose elements' layers the walk reads where they are
// built.
func elementOfOwnContainer(m *rewrite.Model, id *rewrite.Node) bool {
	b := m.Binding(id)
	if b == nil || b.Kind != rewrite.LoopBinding || b.Stmt == nil {
		return false
	}
	r := b.Stmt.ChildByField("right")
	return r != nil && r.Type == "attribute" && r.ChildByField("object").Text() == "self"
}

// dictField reads `config["hidden_size"]` where config is a dict written
// out in a module (a literal, or dict(...) with keywords), in this frame
// or handed down through the building calls' arguments (a ViT whose
// training script writes its config dict: blind sample S14J). known is
// false when expr is no such read.
func dictField(fr *widthFrame, expr *rewrite.Node, depth int) (v int, ok, known bool) {
	idx, obj := expr.ChildByField("subscript"), expr.ChildByField("value")
	if idx == nil || idx.Type != "string" || obj == nil || obj.Type != "identifier" {
		return 0, false, false
	}
	key, isString := rewrite.StringValue(idx)
	if !isString {
		return 0, false, false
	}
	d, in := dictOf(fr, obj)
	if d == nil {
		return 0, false, false
	}
	var val *rewrite.Node
	if d.Type == "call" {
		val = rewrite.KeywordValue(d, key)
	} else {
		for _, pair := range d.NamedChildren() {
			if pair.Type != "pair" {
				continue
			}
			if k, ok := rewrite.StringValue(pair.ChildByField("key")); ok && k == key {
				val = pair.ChildByField("value")
			}
		}
	}
	if val == nil {
		return 0, false, true
	}
	v, ok = intBound(in, val, depth+1)
	return v, ok, true
}

// dictOf returns the dict written out (a literal, or a dict(...) call
// with keywords only) that the identifier id read in fr holds, through
// the building calls' arguments when id is a parameter, and the frame to
// read it in; nil when it is not one such dict of this module's frames.
// The dict is only read: a name assigned more than once (a dict updated
// key by key) has several origins and is not one.
func dictOf(fr *widthFrame, id *rewrite.Node) (*rewrite.Node, *widthFrame) {
	// A config handed down from block to block: up to 8 building calls.
	return valueOf(fr, id, 8, func(e *rewrite.Node) bool {
		return e.Type == "dictionary" ||
			e.Type == "call" && fr.m.CalleeName(e) == "dict" && len(rewrite.PositionalArgs(e)) == 0 && !rewrite.HasSplat(e)
	})
}

// addedLayers are the arguments of the `add_module`/`append`/`extend`
// calls that fill a container the frame builds empty (`model =
// nn.Sequential()`, then `model.add_module("conv1", nn.Conv2d(...))` in
// the same scope: blind sample S17C's textbook CNN).
func addedLayers(fr *widthFrame) []*rewrite.Node {
	call := fr.def
	if call.Type != "call" || len(callArguments(call)) > 0 {
		return nil
	}
	switch fr.m.CalleeName(call) {
	case "torch.nn.Sequential", "torch.nn.ModuleList":
	default:
		return nil
	}
	st := rewrite.Statement(call)
	if st == nil || st.Type != "expression_statement" || len(st.NamedChildren()) != 1 {
		return nil
	}
	asg := st.NamedChildren()[0]
	if asg.Type != "assignment" || asg.ChildByField("right") != call {
		return nil
	}
	b := fr.m.TargetBinding(asg.ChildByField("left"))
	if b == nil {
		return nil
	}
	var out []*rewrite.Node
	for _, use := range b.Uses {
		attr := use.Parent
		if attr == nil || attr.Type != "attribute" || attr.ChildByField("object") != use || attr.Parent == nil || attr.Parent.Type != "call" {
			continue
		}
		switch attr.ChildByField("attribute").Text() {
		case "add_module", "append", "extend":
			out = append(out, attr.Parent.ChildByField("arguments"))
		}
	}
	return out
}

// intProduct bounds the product of a tuple or list of sizes, written
// there or bound to a name (`np.prod(image_size)` with `image_size = (28,
// 28)`: the flattened input of blind sample S17C's MLP GAN).
func intProduct(fr *widthFrame, expr *rewrite.Node, depth int) (int, bool) {
	seq, in := expr, fr
	if expr.Type == "identifier" {
		seq, in = valueOf(fr, expr, 4, func(e *rewrite.Node) bool { return e.Is("tuple", "list") })
	}
	if seq == nil || !seq.Is("tuple", "list") {
		return 0, false
	}
	v := 1
	for _, c := range seq.NamedChildren() {
		if c.Type == "comment" {
			continue
		}
		n, ok := intBound(in, c, depth+1)
		if !ok || n > 1<<20 {
			return 0, false
		}
		v *= n
	}
	return v, true
}

// constructionOf returns the call that builds the value of the
// identifier id read in fr (through the argument of the building call
// when id is its parameter), and the frame to read that call in; nil
// when it is not one call of this module.
func constructionOf(fr *widthFrame, id *rewrite.Node) (*rewrite.Node, *widthFrame) {
	return valueOf(fr, id, 4, func(e *rewrite.Node) bool { return e.Type == "call" })
}

// valueOf returns the one expression the identifier id read in fr holds
// when accept takes it, and the frame to read it in: through the building
// calls' arguments when id is a parameter (at most hops of them), else
// its one origin in this module. nil when the chain leads elsewhere.
func valueOf(fr *widthFrame, id *rewrite.Node, hops int, accept func(*rewrite.Node) bool) (*rewrite.Node, *widthFrame) {
	for range hops {
		if b := fr.m.Binding(id); b != nil && b.Kind == rewrite.ParamBinding {
			f := fr.paramFrame(b.Ident)
			if f == nil {
				return nil, nil
			}
			a, in, _, ok := f.argument(b.Ident)
			switch {
			case !ok || a == nil:
				return nil, nil
			case accept(a):
				return a, in
			case a.Type != "identifier":
				return nil, nil
			}
			fr, id = in, a
			continue
		}
		origins := fr.m.Origins(id)
		if len(origins) != 1 || origins[0].Model != nil || origins[0].Expr == nil || origins[0].Index >= 0 || !accept(origins[0].Expr) {
			return nil, nil
		}
		return origins[0].Expr, fr
	}
	return nil, nil
}

// flagDefault reads `args.nhid` where args is what an argparse parser's
// parse_args() returned, in this module or in the script that hands the
// namespace to a class of this one: the default of the add_argument call
// that stores nhid. flag is false when expr is no such read.
func flagDefault(fr *widthFrame, expr *rewrite.Node, depth int) (v int, ok, flag bool) {
	def, parser, flag := flagDefaultValue(fr.m, expr)
	if def == nil {
		return 0, false, flag
	}
	v, ok = intBound(&widthFrame{m: parser, walk: fr.walk}, def, depth+1)
	return v, ok, true
}

// flagDefaultValue returns the default of the command-line flag that
// `args.name` reads, and the model of the module that parses the flags
// (this file, or the script that hands the namespace to a class of this
// file); flag is false when expr reads no flag, def nil when the flag has
// no default.
func flagDefaultValue(m *rewrite.Model, expr *rewrite.Node) (def *rewrite.Node, parser *rewrite.Model, flag bool) {
	if expr.Type != "attribute" {
		return nil, nil, false
	}
	obj := expr.ChildByField("object")
	if obj == nil || obj.Type != "identifier" && !(obj.Type == "attribute" && obj.ChildByField("object").Text() == "self") {
		// (`self.arg.num_worker`: the namespace kept on self by a
		// Processor class that __init__ is handed, ST-GCN's layout.)
		return nil, nil, false
	}
	for _, o := range m.OriginsAcross(obj) {
		if o.Expr != nil && o.Expr.Type == "call" {
			if f := o.Expr.ChildByField("function"); f != nil && f.Type == "attribute" && f.ChildByField("attribute").Text() == "parse_args" {
				if o.Model == nil {
					o.Model = m
				}
				if parser == nil || parser == o.Model {
					parser = o.Model
					continue
				}
			}
		}
		return nil, nil, false
	}
	if parser == nil {
		return nil, nil, false
	}
	dest := expr.ChildByField("attribute").Text()
	// parser.set_defaults(hidden_dim=20) overrides the argument's own
	// default (argparse: parser-level defaults win; diffpool's widths,
	// blind sample XX).
	for _, call := range parser.File.MethodCalls("set_defaults") {
		if v := rewrite.KeywordValue(call, dest); v != nil {
			return v, parser, true
		}
	}
	for _, call := range parser.File.MethodCalls("add_argument") {
		if flagDest(call) == dest {
			return rewrite.KeywordValue(call, "default"), parser, true
		}
	}
	return nil, nil, true
}

// intLiteralText parses a decimal integer literal (with underscores).
func intLiteralText(s string) (int, bool) {
	v := 0
	for _, c := range s {
		switch {
		case c == '_':
		case c >= '0' && c <= '9':
			v = v*10 + int(c-'0')
			if v > 1<<40 {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	return v, s != ""
}

// searchSpaceBound bounds a hyperparameter an Optuna trial draws:
// `trial.suggest_int("n_units", 4, 128)` is at most its high, and
// `trial.suggest_categorical("width", [64, 128])` at most its largest
// choice. search is false for any other call.
func searchSpaceBound(fr *widthFrame, call *rewrite.Node, depth int) (v int, ok, search bool) {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return 0, false, false
	}
	switch fn.ChildByField("attribute").Text() {
	case "suggest_int", "suggest_discrete_uniform":
		v, ok = intBound(fr, rewrite.Arg(call, 2, "high"), depth+1)
		return v, ok, true
	case "suggest_categorical":
		v, ok = intBound(fr, rewrite.Arg(call, 1, "choices"), depth+1)
		return v, ok, true
	}
	return 0, false, false
}

// graphConvolutions are the message-passing layers of PyG and DGL whose
// first two arguments are the input and output feature sizes.
var graphConvolutions = map[string]bool{
	"GCNConv": true, "SAGEConv": true, "GraphConv": true, "GATConv": true, "GATv2Conv": true, "ChebConv": true,
	"TransformerConv": true, "RGCNConv": true, "TAGConv": true, "SGConv": true, "ResGatedGraphConv": true,
	"GeneralConv": true, "RelGraphConv": true,
}

// graphConvolution reports a graphConvolutions layer of torch_geometric.nn
// or dgl.nn (under any of their module paths).
func graphConvolution(q string) bool {
	if !strings.HasPrefix(q, "torch_geometric.nn.") && !strings.HasPrefix(q, "dgl.nn.") {
		return false
	}
	return graphConvolutions[q[strings.LastIndexByte(q, '.')+1:]]
}

// firstArg is rewrite.Arg trying each keyword (PyG's and DGL's names of
// one parameter); pos < 0 reads keywords only.
func firstArg(call *rewrite.Node, pos int, keywords ...string) *rewrite.Node {
	if pos >= 0 {
		if args := rewrite.PositionalArgs(call); pos < len(args) {
			return args[pos]
		}
	}
	for _, k := range keywords {
		if v := rewrite.KeywordValue(call, k); v != nil {
			return v
		}
	}
	return nil
}

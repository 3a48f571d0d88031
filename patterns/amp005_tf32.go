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

// tf32Size is the condition of AMP005's measured gain, which every message
// states: the step's matmuls must be large, and convolutions gain nothing
// (cuDNN runs them in TF32 by default). Blind samples judged the bare
// "~2.46×" false on networks 30-250 wide at small batches.
const tf32Size = " (a Transformer of d 1024 on an H100: a step gains in proportion to its large matmuls, little from layers a few hundred wide at small batches, nothing for convolutions, which cuDNN already runs in TF32)"

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
	if p.File.SpellsAny([]string{"set_float32_matmul_precision", "allow_tf32", "fp32_precision"}) || callsProjectSetter(p, "set_float32_matmul_precision", "allow_tf32", "fp32_precision") || float64Training(p) || forceField(p) {
		return // (TF32 is a format for fp32 matmuls: float64 ones stay as they are)
	}
	// Mixed precision already: under autocast the matmuls and convolutions
	// run in fp16/bf16 and TF32 has nothing left to speed up. Autocast
	// through a project's wrapper (YOLOv5's smart_amp_autocast) counts.
	if mentionsAutocast(p) || apexMixedPrecision(p) || fp16Weights(p) || p.Model.ImportsProjectModule(func(d *rewrite.ProjectDef) bool { return d.Autocast }) {
		return // (also in the project module whose step this script calls)
	}
	if launchChosenPrecision(p) {
		return
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok || trainsForOtherModules(p, start) || convolutionsOnly(p) {
		return
	}
	var fix *rewrite.Fix
	if e, ok := insertModuleStatement(p, "torch.set_float32_matmul_precision", `("high")`); ok {
		fix = v.Downgrade(Fix(rewrite.Unsafe, `Call torch.set_float32_matmul_precision("high") after the imports`, e))
	}
	msg := "this script trains with full-fp32 matmuls: TF32 tensor cores on " + v.Assumption + ` run them ~2.46× faster` + tf32Size + `; call torch.set_float32_matmul_precision("high")`
	if v.Hint {
		msg = `this script trains with full-fp32 matmuls: on GPUs with compute capability >= 8.0 TF32 is ~2.46× faster` + tf32Size + `; call torch.set_float32_matmul_precision("high") (` + v.Assumption + ")"
	}
	if linearOnly(p) {
		// An MLP: its matmuls are as large as its batch (blind sample WW).
		if b, ok := loaderBatch(p); ok && b < mlpGainBatch {
			return // 0.80-1.07× with TF32 at batch 256 and 512
		}
		msg += mlpBatchNote
		if fix != nil {
			fix.Applicability = rewrite.Hint
		}
	}
	p.ReportRange(start, end, msg, fix)
}

// launchChosenPrecision reports an HF Accelerate `Accelerator()` built
// without a mixed_precision argument: the precision comes from `accelerate
// launch --mixed_precision` or the saved accelerate config, which the code
// does not show (blind sample S20L's U-ViT, launched with fp16 by every
// README command). One that passes mixed_precision (a flag defaulting to
// "no") shows it, and keeps the finding.
func launchChosenPrecision(p *Pass) bool {
	for _, c := range p.Model.CallsTo("accelerate.Accelerator") {
		if rewrite.KeywordArg(c, "mixed_precision") == nil && !rewrite.HasSplat(c) {
			return true
		}
	}
	return false
}

// mlpGainBatch is the batch from which networks of linear layers alone
// gained from autocast and TF32 on an H100: 2048- and 4096-wide MLPs ran
// 0.75-1.07× at batch 256 and 512 and 1.66-3.84× at 4096
// (corpus/gpu/amp004_narrow.py wide and wide-tf32). Below it, with the
// batch read from the code, AMP004 and AMP005 say nothing of an MLP.
const mlpGainBatch = 2048

// loaderBatch returns the largest batch_size of the loaders that feed the
// file's GPU loops, when the code shows every one (a literal, a constant,
// a flag's default).
func loaderBatch(p *Pass) (int, bool) {
	type answer struct {
		n  int
		ok bool
	}
	a := p.Memo("amp.loaderBatch", func() any {
		top := &widthFrame{m: p.Model, walk: &widthWalk{}}
		best, any := 0, false
		for _, gl := range gpuLoaders(p) {
			n, ok := intBound(top, rewrite.Arg(gl.Call, 1, "batch_size"), 0)
			if !ok {
				return answer{}
			}
			best, any = max(best, n), true
		}
		return answer{best, any}
	}).(answer)
	return a.n, a.ok
}

// mlpBatchNote is AMP005's caveat for networks of linear layers alone.
const mlpBatchNote = "; but these networks are linear layers only, whose matmuls are as large as the batch: MLPs of 2048- and 4096-wide layers ran 0.80-1.07× with TF32 at batch 256 and 512 and 1.79-3.43× at 4096 on an H100, so keep it where the step measures faster"

// linearOnly reports a file whose training steps run networks, all
// readable, built of linear layers alone (besides activations, norms,
// dropout and embeddings): no convolution, recurrent or attention layer,
// no matmul by hand.
func linearOnly(p *Pass) bool {
	return p.Memo("amp005.linearOnly", func() any {
		top := &widthFrame{m: p.Model, walk: &widthWalk{}}
		nets, ok := trainedNetworks(p, top)
		if !ok {
			return false
		}
		linear := false
		for _, net := range nets {
			other := false
			net.def.Walk(func(n *rewrite.Node) bool {
				switch {
				case other:
				case n.Type == "binary_operator" && n.ChildByField("operator").Text() == "@":
					other = true
				case n.Type == "call":
					q := net.m.CalleeName(n)
					switch {
					case q == "torch.nn.Linear" || q == "torch.nn.LazyLinear":
						linear = true
					case matmulLayers[q] || cudnnLayer(q) || strings.HasPrefix(q, "torch.nn.Transformer") || q == "torch.nn.MultiheadAttention":
						other = true
					case q == "" || !strings.HasPrefix(q, "torch.") && strings.Contains(q, "."):
						// a project block or a library's: not read here
						// (`timm.create_model(name)`, whose children a
						// classifier keeps: blind sample S40K's
						// EfficientNet read as one linear layer)
						if n.ChildByField("function").Type == "identifier" || fromLibrary(q, modelLibraries) {
							other = true
						}
					}
				}
				return !other
			})
			if other {
				return false
			}
		}
		return linear
	}).(bool)
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

// convolutionsOnly reports a file whose networks (defined here, in a
// project module it imports, or built in place) leave the matmul setting
// nothing to speed up: their work is cuDNN's (convolutions, nn.LSTM/GRU/
// RNN) with no linear layer shown larger than narrowLinearMACs (a head),
// or, with no cuDNN layer, every linear layer is known and tinyMatmulMACs
// or fewer; no attention, no matmul call. cuDNN already runs fp32 convolutions in TF32 by
// default (torch.backends.cudnn.allow_tf32): a DCGAN critic, GRU and LSTM
// classifiers with small heads ran 0.90-1.10× with the setting on an H100
// (corpus/gpu/amp005_cudnn.py, .notes/amp005-cudnn-h100.txt). Networks
// from a library are not known, and count as having matmuls.
func convolutionsOnly(p *Pass) bool {
	if p.Model.Imports("timm") {
		// (timm's CNNs too are convolutions and a head, but the recall
		// labels expect AMP005 on accelerate's timm ResNet-50d, and
		// blind sample S35N judged it false on a timm EfficientNetV2:
		// left as it was, a decision for the team.)
		return false
	}
	libraryCNN := false
	if p.File.Spells("from_pretrained") {
		// Library networks are unknown, but efficientnet_pytorch's are
		// CNNs (blind sample S35N's EfficientNet-B7 beside a torchvision
		// ResNet-50, whose only linear layer is a head).
		if cnn, other := libraryCNNs(p); !cnn || other {
			return false
		}
		libraryCNN = true
	}
	if narrowTraining(p) || circuitSimulation(p) {
		return true // narrow networks: launch-bound steps (0.75-1.05× with TF32); or a circuit simulation
	}
	top := &widthFrame{m: p.Model, walk: &widthWalk{}}
	trained, trainedOK := trainedNetworks(p, top)
	if trainedOK && !slices.ContainsFunc(trained, func(n *widthFrame) bool { return !lookupsOnly(n) }) {
		return true // embedding lookups combined elementwise: no matmul (castFree)
	}
	sum := matmulSummary{sparse: sparseMatmul(p), gan: ganScript(p)}
	if libraryCNN {
		sum.cudnn, sum.conv = true, true // (an efficientnet_pytorch model built by from_pretrained)
		sum.layers++
	}
	for _, call := range p.File.OfType("call") {
		q := p.Model.CalleeName(call)
		if q == "" {
			q = torchvisionArchDefault(p, call) // models.__dict__[args.arch]()
		}
		if sum.layer(top, call, q) {
			continue
		}
		// A network class imported from the project (a class with no
		// base, or one of nn.Module's): its layers, those of the blocks
		// it builds included.
		switch d := p.Model.ImportedDef(call.ChildByField("function")); {
		case d == nil:
		case d.Class && !slices.ContainsFunc(d.Bases, func(b string) bool { return !strings.Contains(b, "Module") }):
			nets, _ := importedNetwork(top, d, call)
			switch {
			case len(nets) > 0:
				sum.network(nets[0])
			case convolutionModule(p, d):
				// Built where the walk cannot follow (a Darknet assembled
				// from a .cfg), in a module of convolutions only.
				sum.cudnn = true
				sum.layers++
			default:
				sum.opaque = true
			}
		case d.Class:
		default:
			if returnsTorchvisionCNN(p, d) {
				// `encoder = get_resnet(args.resnet)` of a module whose
				// function picks among torchvision ResNets (SimCLR:
				// blind sample XX): convolutions and a head.
				sum.layer(top, call, "torchvision.models.resnet50")
			}
			if slices.Contains(d.Returns, "class:torch.nn.Module") && convolutionModule(p, d) {
				// `model = load_model(cfg)` returning a network of a
				// module of convolutions only.
				sum.cudnn = true
				sum.layers++
			}
		}
		if sum.large {
			return false
		}
	}
	for _, op := range p.File.OfType("binary_operator") {
		if o := op.ChildByField("operator"); o != nil && o.Text() == "@" && !sum.sparse {
			sum.product(p.Model, op)
		}
	}
	if sum.products && !sum.recurrentOnly() {
		return false
	}
	if sum.layers == 0 {
		// No network built here: an engine module's training function
		// steps the model its scripts hand it (blind sample EE's
		// `engine.fit(model, ...)` of a 32-channel char CNN).
		if !trainedOK {
			// The trained network is built where gpuopt cannot read
			// it (a class handed in as q_func, `getattr(models,
			// args.model)`): see opaque.
			return !projectMatmuls(p)
		}
		for _, net := range trained {
			if sum.network(net); sum.large {
				return false
			}
		}
		if sum.layers == 0 {
			// The trained networks were found but none of their layers
			// could be read (ResNet-20's blocks built through
			// `resnet.__dict__[args.arch]()`, AdaIN's nn.Sequential of
			// a sibling module): as opaque, the project decides (blind
			// samples S14D and FF judged AMP005 false on both CNNs).
			return !projectMatmuls(p)
		}
	}
	if sum.opaque && !sum.large && !projectMatmuls(p) {
		return true
	}
	return sum.small()
}

// projectMatmuls reports a project whose modules this file imports
// (directly or through two more imports: DETR's main imports models,
// which imports detr.py, which imports its transformer) define a network
// class built on matmuls: attention or Transformer layers, matmul calls,
// or a language model's vocabulary head (see matmulModule).
// An unreadable network of such a project (DETR's build_model, a
// diffusion U-Net with attention from create_model_and_diffusion,
// AWD-LSTM's RNNModel) keeps AMP005's finding; blind samples judged
// those true while the opaque CNNs were false.
func projectMatmuls(p *Pass) bool {
	return p.Model.ImportsProjectModuleDeep(func(mod *rewrite.ProjectDef) bool {
		return p.Memo("amp005.matmuls:"+mod.Path, func() any {
			fm := p.Model.ModuleOf(mod)
			return fm != nil && matmulModule(fm)
		}).(bool)
	}, 3)
}

// matmulModule reports a module that builds attention or Transformer
// layers, calls a matmul or multiplies with `@` beside a softmax
// (attention by hand), or builds a vocabulary head: a linear layer as
// wide as one of its embeddings' vocabularies (`nn.Linear(nhid, ntoken)`
// beside `nn.Embedding(ntoken, ninp)`). An embedding beside a small head
// is a text classifier, whose matmuls are narrow (blind samples S14A and
// SS judged AMP005 false on GRU4REC and the Jigsaw LSTMs).
func matmulModule(m *rewrite.Model) bool {
	var vocabs, outs []string
	for _, c := range m.File.OfType("call") {
		switch q := m.CalleeName(c); {
		case q == "torch.nn.Embedding":
			if v := rewrite.Arg(c, 0, "num_embeddings"); v != nil {
				vocabs = append(vocabs, v.Text())
			}
		case q == "torch.nn.Linear":
			if o := rewrite.Arg(c, 1, "out_features"); o != nil {
				outs = append(outs, o.Text())
			}
		case q == "torch.nn.MultiheadAttention", strings.HasPrefix(q, "torch.nn.Transformer"), q == "torch.nn.functional.scaled_dot_product_attention":
			return true
		case q == "torch.matmul", q == "torch.einsum", q == "torch.bmm", q == "torch.baddbmm":
			if attentionContext(m, c) {
				return true
			}
		}
	}
	for _, op := range m.File.OfType("binary_operator") {
		if o := op.ChildByField("operator"); o != nil && o.Text() == "@" && attentionContext(m, op) {
			return true
		}
	}
	for _, o := range outs {
		if slices.Contains(vocabs, o) {
			return true
		}
	}
	return false
}

// tinyMatmulMACs is the largest linear layer (in × out) of a network with
// no cuDNN layer that AMP005 leaves alone: a 256-wide MLP's matmuls are a
// few microseconds whatever their precision, and a tabular residual MLP
// of 512×256 layers stepped at batch 8192 ran ~1.0× with TF32 on an H100
// (3.30-3.48 against 3.12-3.52 ms; blind sample AA, .notes/blind-aa.md).
//
// Up to 1024×1024: MNIST MLPs (784-500-10 at batch 100, 784-200-200-10
// at 200, 784-400-20 at 128) ran 0.80-1.10× with TF32 on an H100, and
// 1024-wide ones at batch 256 0.94-0.97×; only 4096-wide layers at batch
// 512 gained (1.66×) (corpus/gpu/amp005_cudnn.py,
// .notes/amp005-cudnn-h100.txt). Blind sample DD judged AMP005 on a
// 784×200 MLP a false alarm.
const tinyMatmulMACs = 1024 * 1024

// matmulSummary is what convolutionsOnly learns of the file's layers.
type matmulSummary struct {
	cudnn bool // a convolution or recurrent layer
	// recurrent, conv: which kind of cuDNN layer was seen.
	recurrent, conv bool
	// products: a matmul call (torch.bmm, torch.matmul, F.linear, ...),
	// whose size the code does not show. In a network of convolutions
	// (a self-attention block of a GAN or a U-Net) or of no cuDNN layer
	// it counts as large; beside recurrent layers alone it is attention
	// over their states, as narrow as they are (DA-RNN's and the Jigsaw
	// LSTMs' attention: blind sample SS judged TF32 no gain there).
	products bool
	linear   int  // the largest linear layer's in × out, of those known
	unknown  bool // a linear layer whose size the code does not show
	// bare: a matmul by hand outside attention (`feats @ proj`), of a
	// size the code does not show; large unless beside convolutions.
	bare   bool
	vocab  []string // the vocabulary sizes of the embeddings seen, as spelled
	layers int
	large  bool // a matmul of unknown or large size
	// opaque: a network whose layers the walk cannot read (a project
	// class built by name, a CNN picked with getattr(models, args.arch)).
	// With no large matmul shown elsewhere, AMP005 stays silent: blind
	// samples FF, II, JJ and KK judged 13 of 27 AMP005 findings false,
	// nearly all on such networks that turned out to be CNNs (whose
	// convolutions cuDNN already runs in TF32) or small (makemore,
	// GrowNet's learners), and a finding that cannot say what it would
	// speed up is a guess.
	opaque bool
	// sparse: the model multiplies by a sparse matrix (a GNN's adjacency),
	// which TF32 does not speed up; its dense matmuls are feature
	// transforms of its embedding width.
	sparse bool
	// gan: the file trains a GAN at its recipe's batch, where linear
	// layers up to ganLinearMACs beside convolutions gain nothing: an
	// MNIST GAN's generator and discriminator (1024×6272 layers, batch
	// 64) ran 1.00× and 0.96× with TF32 on an H100
	// (corpus/gpu/amp005_cudnn.py gan, .notes/amp005-gan-h100.txt).
	gan bool
	// functional: a matmul with a module's own weight (F.linear).
	functional bool
}

// layer records call when it is a layer or a matmul, reporting whether it
// was one.
func (s *matmulSummary) layer(fr *widthFrame, call *rewrite.Node, q string) bool {
	switch {
	case q == "torch.nn.Linear":
		in, inOK := intBound(fr, rewrite.Arg(call, 0, "in_features"), 0)
		out, outOK := intBound(fr, rewrite.Arg(call, 1, "out_features"), 0)
		switch {
		case inOK && outOK:
			s.linear = max(s.linear, in*out)
		case inOK != outOK && max(in, out) <= narrowLinearSide:
			// A feature count read at run time beside a 256-wide
			// layer: a tabular MLP's input layer.
			s.linear = max(s.linear, max(in, out)*narrowLinearSide)
		case outOK && !inOK && out <= countedLinearSide && columnCount(call, 0, "in_features"),
			inOK && !outOK && in <= countedLinearSide && columnCount(call, 1, "out_features"):
			s.linear = max(s.linear, max(in, out)*narrowLinearSide) // `len(target_cols)` outputs
		default:
			// A width the code does not show: no evidence either way
			// (see small).
		}
		if a := rewrite.Arg(call, 1, "out_features"); a != nil && slices.Contains(s.vocab, a.Text()) && !outOK {
			s.large = true // `nn.Linear(hidden, vocab_size)` beside `nn.Embedding(vocab_size, ...)`
		}
		s.layers++
	case cudnnLayer(q):
		s.cudnn = true
		if strings.HasPrefix(q, "torch.nn.Conv") {
			s.conv = true
		} else {
			s.recurrent = true
		}
		s.layers++
	case q == "torch.nn.Embedding" || q == "torch.nn.EmbeddingBag":
		// A vocabulary: a linear layer as wide as it is a language
		// model's output layer, a large matmul per token.
		if v := rewrite.Arg(call, 0, "num_embeddings"); v != nil {
			s.vocab = append(s.vocab, v.Text())
		}
	case strings.HasPrefix(q, "torchvision.models.") && torchvisionCNN(q[strings.LastIndexByte(q, '.')+1:]):
		// A torchvision CNN: convolutions, and a head of 2048×1000 at
		// most (ResNet-50's), or VGG's 25088-4096-4096-1000 classifier,
		// about 1% of VGG-16's FLOPs at 224×224 (blind samples S24H and
		// S26D judged TF32 advice on VGG-16 steps false).
		s.cudnn, s.conv = true, true
		s.linear = max(s.linear, 2048*1000)
		s.layers++
	case q == "torch.nn.functional.linear":
		// F.linear(x, self.weight) with a weight the module holds, of a
		// size the walk does not read: beside convolutions a head (an
		// ArcFace margin head, a proxy loss's class proxies: blind
		// samples S14C and S14I judged AMP005 false on both), otherwise
		// large (AWD-LSTM's split softmax over its vocabulary: see small).
		s.functional = true
		s.layers++
	case matmulLayers[q] && s.sparse && !strings.HasPrefix(q, "torch.nn."):
		// torch.mm(features, weight) in a graph network: the width of
		// its embeddings, read with the linear layers.
		s.layers++
	case matmulLayers[q] && !strings.HasPrefix(q, "torch.nn."):
		s.product(fr.m, call)
	case strings.HasPrefix(q, "efficientnet_pytorch."):
		// efficientnet_pytorch's EfficientNet: convolutions and a head,
		// as torchvision's CNNs.
		s.cudnn, s.conv = true, true
		s.linear = max(s.linear, 2048*1000)
		s.layers++
	case matmulLayers[q], strings.HasPrefix(q, "torchvision.models"), strings.HasPrefix(q, "timm"), transformersModel(q):
		s.large = true
	default:
		return false
	}
	return true
}

// network walks a network class of another project module, and the
// blocks it builds, into the summary.
func (s *matmulSummary) network(fr *widthFrame) {
	fr.def.Walk(func(n *rewrite.Node) bool {
		if s.large || n.Type != "call" {
			return !s.large
		}
		if s.layer(fr, n, fr.m.CalleeName(n)) {
			return false
		}
		if d := fr.m.CalledDef(n); d != nil {
			if d.Type == "function_definition" && d.ChildByField("name").Text() == "__init__" {
				d = enclosingClass(d)
			}
			if d != nil {
				if sub := fr.enter(fr.m, d, n); sub != nil {
					s.network(sub)
				}
			}
			return !s.large
		}
		if d := fr.m.ImportedDef(n.ChildByField("function")); d != nil && d.Class {
			nets, _ := importedNetwork(fr, d, n)
			if len(nets) == 0 {
				s.large = true
				return false
			}
			s.network(nets[0])
		}
		return !s.large
	})
}

// product records a matmul call or `@` product n of m. Beside a softmax
// it is attention, whose size grows with the sequence (a U-Net's or a
// PixelSNAIL's self-attention: blind samples judged TF32 worth it there);
// any other product (bare) is a matmul of unknown size, which a network
// of convolutions makes a head: PointNet's 3×3 and 64×64
// transform bmm, MelGAN's mel projection and an ArcFace F.linear beside
// a ResNet-101 are not where a convolutional step spends its time (blind
// samples RR, WW and KK judged AMP005 false there).
func (s *matmulSummary) product(m *rewrite.Model, n *rewrite.Node) {
	if attentionContext(m, n) || gramProduct(n) {
		s.products = true
		return
	}
	s.bare = true
	s.layers++
}

// gramProduct reports a product of a tensor with its own transpose
// (`torch.mm(f, f.t())`, `f @ f.transpose(1, 2)`): a Gram matrix of
// feature maps, channels × pixels × channels, as large as the maps are
// (a style loss over VGG features: a GPU engineer would turn TF32 on
// there, and the recall set expects it).
func gramProduct(n *rewrite.Node) bool {
	var a, b *rewrite.Node
	switch n.Type {
	case "binary_operator":
		a, b = n.ChildByField("left"), n.ChildByField("right")
	case "call":
		args := rewrite.PositionalArgs(n)
		if len(args) != 2 {
			return false
		}
		a, b = args[0], args[1]
	}
	if a == nil || b == nil {
		return false
	}
	t := strings.ReplaceAll(b.Text(), " ", "")
	x := strings.ReplaceAll(a.Text(), " ", "")
	return t == x+".t()" || t == x+".T" || t == x+".mT" || strings.HasPrefix(t, x+".transpose(") || strings.HasPrefix(t, x+".permute(")
}

// attentionContext reports a matmul n whose class (or, outside a class,
// function) also takes a softmax: attention written by hand.
func attentionContext(m *rewrite.Model, n *rewrite.Node) bool {
	scope := n.Ancestor("class_definition")
	if scope == nil {
		scope = n.Ancestor("function_definition")
	}
	if scope == nil {
		scope = m.File.Root
	}
	found := false
	scope.Walk(func(c *rewrite.Node) bool {
		if found {
			return false
		}
		if c.Type == "call" {
			fn := c.ChildByField("function")
			name := fn.Text()
			if fn.Type == "attribute" {
				name = fn.ChildByField("attribute").Text()
			}
			switch strings.ToLower(name) {
			case "softmax", "scaled_dot_product_attention":
				found = true
			}
		}
		return !found
	})
	return found
}

// small reports layers whose matmuls the setting cannot speed up.
func (s *matmulSummary) small() bool {
	switch {
	case s.large || s.layers == 0 || s.products && !s.recurrentOnly() || s.functional && !s.conv:
		return false
	case s.cudnn, s.sparse:
		// A network of convolutions or recurrent layers, or one whose
		// work is sparse matmuls (NGCF, DCRNN: blind sample EE judged
		// TF32 no gain there): its linear layers are heads or feature
		// transforms, small unless the code shows otherwise.
		return s.linear <= narrowLinearMACs || s.gan && s.linear <= ganLinearMACs || s.conv && s.linear <= convHeadMACs
	}
	// Linear layers whose size the code does not show (a width read
	// from the data or a config) are no evidence of large matmuls: blind
	// samples judged AMP005 false on 10 such networks (a ResNet-18 with
	// a head read from a config, DeepFM, GrowNet's learners, Jane Street
	// and Riiid MLPs, fastText, a recurrent attention model) against 3
	// true (a collaborative-filtering VAE over 20k items, GCNII on
	// ogbn-arxiv, an MNIST VAE judged a tiny gain).
	return !s.bare && s.linear <= tinyMatmulMACs
}

// convHeadMACs bounds the linear layers of a convolutional network that
// count as its head (in × out): VGG-16's classifier, 25088×4096 the
// largest, trained 1.02× faster with TF32 matmuls at 224×224 on an H200,
// four ResNet-18 trunks with a 2048×2048 head 1.01×
// (corpus/gpu/amp005_conv_heads.py, .notes/amp005-conv-heads-h200.txt):
// the convolutions, already TF32 in cuDNN, are the step. Blind samples
// S39A, S39S and S39W judged AMP005 false on such networks.
const convHeadMACs = 128 * 1024 * 1024

// recurrentOnly reports cuDNN layers that are all recurrent.
func (s *matmulSummary) recurrentOnly() bool { return s.recurrent && !s.conv }

// cudnnLayer reports a torch.nn layer cuDNN runs: a convolution or a
// recurrent layer.
func cudnnLayer(q string) bool {
	return strings.HasPrefix(q, "torch.nn.Conv") || recurrentLayer(q)
}

// trainedNetworks returns the frames of the networks the file's training
// steps run (the modules called in the loops of its `.backward()` calls),
// wherever they are built; ok is false when one of them is not known.
func trainedNetworks(p *Pass, top *widthFrame) (nets []*widthFrame, ok bool) {
	seen := map[*rewrite.Node]bool{}
	for _, b := range p.File.MethodCalls("backward") {
		var body []*rewrite.Node
		if loops := p.Model.EnclosingLoops(b); len(loops) > 0 {
			if seen[loops[0]] {
				continue
			}
			seen[loops[0]] = true
			body = p.Model.LoopBodyNodes(loops[0])
		} else if step := stepFunction(p, b); step != nil && !seen[step] {
			// A step function the loop calls per batch (`d_train(x)`,
			// `g_train(x)`: blind sample S17C's textbook GAN).
			seen[step] = true
			step.ChildByField("body").Walk(func(n *rewrite.Node) bool {
				body = append(body, n)
				return !rewrite.IsDefOrLambda(n)
			})
		}
		for _, n := range body {
			if n.Type != "call" || lossCall(n) {
				continue
			}
			fn := n.ChildByField("function")
			if fn == nil || !(fn.Type == "identifier" || selfAttribute(fn)) || !p.Model.IsModule(fn) || lossModuleCall(p, n) {
				continue // (`self.model(x)`: EEG-Conformer's trainer class, blind sample S16A)
			}
			found, _ := networksOf(top, fn, 0)
			if len(found) == 0 {
				return nil, false
			}
			nets = append(nets, found...)
		}
	}
	return nets, len(nets) > 0
}

// transformersModel reports a Hugging Face transformers callee that builds
// a model (AutoModelForCausalLM, BertModel, RobertaForTokenClassification),
// not a scheduler or tokenizer of the library
// (get_linear_schedule_with_warmup beside a char CNN: blind sample EE).
func transformersModel(q string) bool {
	if !strings.HasPrefix(q, "transformers.") {
		return false
	}
	last := q[strings.LastIndexByte(q, '.')+1:]
	return strings.Contains(last, "Model") || strings.Contains(last, "For") || strings.HasSuffix(last, "Config")
}

// torchvisionCNN reports a torchvision model builder of a convolutional
// family whose linear layers are a small share of its work: a head, or
// VGG's classifier (25088-4096-4096-1000, about 1% of VGG-16's FLOPs at
// 224×224). Not AlexNet, whose 9216×4096 classifier is about a tenth of
// its work, nor ViT, Swin or ConvNeXt, whose blocks are linear layers.
func torchvisionCNN(name string) bool {
	for _, f := range []string{"resnet", "resnext", "wide_resnet", "densenet", "mobilenet", "efficientnet", "shufflenet",
		"squeezenet", "mnasnet", "regnet", "googlenet", "inception", "vgg"} {
		if strings.HasPrefix(name, f) {
			return true
		}
	}
	return false
}

// torchvisionArchDefault returns the qualified name of the torchvision model a
// call builds by name, `models.__dict__[args.arch]()`, where the name is
// an argparse flag's default ("resnet50"): SimSiam's and MoCo's encoders.
// "" when it is no such call, or the default is not a string literal.
func torchvisionArchDefault(p *Pass, call *rewrite.Node) string {
	if !torchvisionByName(p, call) {
		return ""
	}
	key := call.ChildByField("function").ChildByField("subscript")
	if key == nil || key.Type != "attribute" {
		return ""
	}
	dest := key.ChildByField("attribute").Text()
	for _, c := range p.File.MethodCalls("add_argument") {
		if flagDest(c) != dest {
			continue
		}
		if d := rewrite.KeywordValue(c, "default"); d != nil && d.Type == "string" {
			return "torchvision.models." + strings.Trim(d.Text(), `"'`)
		}
	}
	return ""
}

// returnsTorchvisionCNN reports a project function that builds models of
// torchvision's convolutional families only (a dict of resnet18 and
// resnet50 indexed by name), and at least one.
func returnsTorchvisionCNN(p *Pass, d *rewrite.ProjectDef) bool {
	fm, def := p.Model.DefinitionOf(d)
	if fm == nil || def == nil {
		return false
	}
	found := false
	for _, c := range fm.File.OfTypeIn(def, "call") {
		q := fm.CalleeName(c)
		if !strings.HasPrefix(q, "torchvision.models.") {
			continue
		}
		if !torchvisionCNN(q[strings.LastIndexByte(q, '.')+1:]) {
			return false
		}
		found = true
	}
	return found
}

// reinforcementLearning reports a script of a reinforcement-learning
// agent: it imports Gym or Gymnasium.
func reinforcementLearning(p *Pass) bool {
	return p.Model.Imports("gym") || p.Model.Imports("gymnasium")
}

// convolutionModule reports a project class whose module builds
// convolutions and no matmul: no linear, bilinear, attention or
// recurrent layer, no matmul call and no `@` (YOLOv3's Darknet, whose
// layers a .cfg file lists: blind sample FF).
func convolutionModule(p *Pass, d *rewrite.ProjectDef) bool {
	fm, _ := p.Model.DefinitionOf(d)
	if fm == nil {
		return false
	}
	conv := false
	for _, c := range fm.File.OfType("call") {
		q := fm.CalleeName(c)
		switch {
		case strings.HasPrefix(q, "torch.nn.Conv"):
			conv = true
		case matmulLayers[q], strings.HasPrefix(q, "torchvision.models"), strings.HasPrefix(q, "timm"), strings.HasPrefix(q, "transformers"):
			return false
		}
	}
	for _, op := range fm.File.OfType("binary_operator") {
		if o := op.ChildByField("operator"); o != nil && o.Text() == "@" {
			return false
		}
	}
	return conv
}

// fp16Weights reports a script whose networks hold fp16 weights already,
// cast in this file or in a project module it imports (two modules away
// at most) the way OpenAI CLIP does (rewrite.HalfWeights: clip.load, a
// convert_weights). The matmuls then run in half precision, where neither
// autocast nor TF32 has anything left to speed up (blind sample S18P's
// Tip-Adapter and CLIP4Clip: AMP004 and AMP005 judged false).
func fp16Weights(p *Pass) bool {
	return rewrite.HalfWeights(p.Model) || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.HalfWeights }, 2)
}

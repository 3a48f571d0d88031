package patterns

import (
	"bytes"
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// MissingAutocast is AMP004.
var MissingAutocast = &Rule{
	Code:      "AMP004",
	Name:      "training-without-autocast",
	Title:     "Run the forward pass and loss under autocast",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch", "lightning", "pytorch_lightning"},
	Names:     []string{"backward", "Trainer"}, // findings sit in loops of a `.backward()` call (callAttr), or at a Lightning Trainer
	Check:     checkMissingAutocast,
}

func init() { Register(MissingAutocast) }

func checkMissingAutocast(p *Pass) {
	v := p.Env.Gate(Need{})
	if v.Silent() {
		return
	}
	var regions []*rewrite.Node // the file's `with ...autocast(...):` statements
	if mentionsAutocast(p) {
		var only bool
		regions, only = autocastRegions(p)
		if !only || usesLightning(p) {
			return // autocast used some other way (a decorator, a flag, a context chosen at run time)
		}
	}
	if usesLightning(p) {
		// Lightning runs the loop: its Trainer's precision is the switch.
		// (Nor where the forward takes an SVD or inverse of an
		// activation, which bf16-mixed precision would make raise.)
		if _, linalg := linalgNote(p); !linalg && !float64Training(p) && !p.Model.ProjectSpells("import torchdiffeq", "from torchdiffeq") && !p.Model.ProjectSpells(torchFFTSpellings...) {
			checkLightningPrecision(p, v)
		}
		return
	}
	if !p.Model.UsesCUDA() || forceField(p) {
		return
	}
	if p.Model.ImportsProjectModule(func(d *rewrite.ProjectDef) bool { return d.Autocast }) {
		// The network's own module runs autocast regions (RAFT's
		// `autocast(enabled=args.mixed_precision)` in forward): an outer
		// wrap is switched off inside them; the project's flag is the
		// switch (blind sample RR).
		return
	}
	if float64Training(p) {
		// Autocast casts only fp32: a float64 network runs as it is, so
		// the wrap would do nothing (blind sample S15A's `Net().double()`).
		return
	}
	if periodicForward(p) {
		// A SIREN or Fourier-feature network: sin(w0 * Wx) with w0 = 30,
		// or sin(2π x B) with B of scale 10-100, turns bf16's relative
		// rounding of the matmul into phase errors of a tenth of a
		// radian or more, which the image or signal fit these networks
		// exist for does not survive (blind sample S31H judged four such
		// findings false).
		return
	}
	if p.Model.ProjectSpells("import torchdiffeq", "from torchdiffeq") {
		// A continuous normalizing flow or neural ODE: the forward is an
		// adaptive solve (dopri5 at tolerances of 1e-5) whose error
		// control half precision breaks (blind sample S17I's FFJORD).
		return
	}
	if pointwiseConv1dTraining(p) {
		return // a PointNet: bf16 ran 0.88-1.02× (pointwiseConv1dTraining)
	}
	if matchesParameterGradients(p) {
		// Gradient or trajectory matching (dataset condensation, MAML):
		// the objective is a function of the parameters' gradients,
		// differentiated again; under bf16 the matched quantity itself
		// changes (blind sample S29C judged two findings on
		// DatasetCondensation-style matching false).
		return
	}
	if p.Model.ProjectSpells(torchFFTSpellings...) {
		// cuFFT has no bf16 kernels (RuntimeError: Unsupported dtype
		// BFloat16, .notes/fft-bf16-h200.txt): a Fourier neural operator
		// or a spectral layer takes FFTs of the activations a bf16 wrap
		// would produce, so the wrap raises at the first forward (blind
		// sample S18K judged five such findings on PINO false). AMP003
		// says the same of its switch.
		return
	}
	if !p.Env.Versions.Torch.AtLeast(1, 10) {
		// torch.autocast (and bf16 autocast) arrived in 1.10: the wrap
		// cannot run on the pinned version, and blind samples SS and RR
		// judged an "upgrade first" finding on pinned projects false.
		return
	}
	// Mixed precision chosen elsewhere: half/bf16 weights, HF Accelerate's
	// mixed_precision, a Hugging Face Trainer's precision flag (Lightning's
	// is checkLightningPrecision's).
	// (torch.accelerator, the device API, says nothing about precision; a
	// class of the file called Trainer is just a class.)
	if spelledOutsideRegions(p, []string{"half", "bfloat16", "float16", "Accelerator"}, regions) || p.Model.Imports("accelerate") || apexMixedPrecision(p) || fp16Weights(p) ||
		p.Model.Imports("transformers") && p.File.Spells("Trainer") {
		return
	}
	bf16 := v.Hint || p.Env.GPU.AtLeast(8, 0)
	small := smallRecurrent(p)
	trains := false
	var reported []*rewrite.Node
	var steps []int   // indexes in p.out of the training steps reported
	sizeSilenced := 0 // training steps left silent for their networks' size
	// One finding per training step: a step with several forward passes
	// (a GAN's discriminator and generator, a semi-supervised step's
	// labelled and unlabelled batches) reports its first, whose fix wraps
	// the others too (blind sample S16P judged one finding per pass as
	// duplicates).
	stepFinding := map[*rewrite.Node]int{} // step -> index in p.out
	stepBase := map[int]string{}           // that finding's message before the other passes joined
	joinedSteps := map[int][]string{}      // that finding -> lines of the other forward passes
	for _, call := range p.File.MethodCalls("backward") {
		loops := p.Model.EnclosingLoops(call)
		var step *rewrite.Node // the loop, or the function a loop calls per batch
		var ms methodStep
		viaMethod := false
		switch {
		case len(loops) > 0 && p.Model.Loop(loops[0]).Trains():
			step = loops[0]
			if inputGradientLoop(p, step) {
				continue // an attack's gradient steps on its input: not a training step
			}
		case len(loops) == 0:
			if step = stepFunction(p, call); step == nil {
				if ms, viaMethod = findMethodStep(p, call); viaMethod {
					step = ms.def
				}
			}
		}
		if step == nil {
			continue
		}
		trains = true
		bstmt := rewrite.Statement(call)
		if viaMethod {
			bstmt = ms.anchor
		}
		if bstmt = stepStatement(p, bstmt, call, step); bstmt == nil {
			continue
		}
		first, stmts := forwardStatements(p, bstmt, call)
		if first == nil && viaMethod {
			// `self.backward_G()` runs the forward passes and the backward
			// itself.
			if anchorCall := soleCall(bstmt); anchorCall != nil && runsForward(p, anchorCall, 0) {
				first, stmts = anchorCall, []*rewrite.Node{bstmt}
			}
		}
		if first == nil || slices.Contains(reported, first) || onCPU(p, first) || hostBatchLoop(p, step) {
			continue // several backward calls after one forward: one finding
		}
		if coveredByAutocast(p, regions, step, first) || fp32Fallback(p, regions, step) {
			continue
		}
		conv := convolutionalTraining(p)
		if conv && (smallConvolutionalBatch(p) || tinyConvolutionalBatch(p)) {
			sizeSilenced++
			continue
		}
		reported = append(reported, first)
		warps := warpsByCoordinates(p)
		msg := "this training step runs the forward pass in fp32: wrap the forward and the loss in "
		if warps {
			msg = "this training step runs the forward pass in fp32: wrap the networks' forward passes (not the loss) in "
		}
		var fix *rewrite.Fix
		var enabled string
		dpBlocked := false
		rnn := cudnnRecurrentLayer(p)
		if rnn == "" && bf16 {
			rnn = recurrentLayerCalled(p, stmts)
		}
		if bf16 && rnn == "" {
			if conv {
				msg += `torch.autocast("cuda", dtype=torch.bfloat16)` + convolutionalNoteFor(p)
			} else if p.Model.ProjectSpells("Conv2d", "Conv3d", "torchvision", "timm") && !attentionProject(p) {
				msg += `torch.autocast("cuda", dtype=torch.bfloat16)` + unreadNetworkNote
			} else {
				msg += `torch.autocast("cuda", dtype=torch.bfloat16) (5.0× measured on an H100)`
			}
			enabled, dpBlocked = dataParallelGuard(p, first, stmts)
			if edits, ok := autocastEditsEnabled(p, first, stmts, "torch.bfloat16", enabled); ok {
				fix = Fix(rewrite.Unsafe, "Wrap the forward pass and the loss in bf16 autocast", edits...)
				if enabled != "" {
					msg += dataParallelGuardNote
				}
			}
		} else {
			why := p.Env.GPU.Describe() + " has no fast bf16"
			if bf16 {
				// cuDNN's RNN autocast casts to fp16 whatever the region's
				// dtype (torch 2.11 on an H200: .notes/rnn-autocast-h200.txt):
				// a bf16 wrap would run the recurrent layer in fp16 without
				// the loss scaling fp16 needs (blind samples S30P, S31C).
				why = recurrentFP16Reason(rnn)
			}
			scalerQ, _ := gradScalerSpelling(p)
			msg += `torch.autocast("cuda", dtype=torch.float16) with a ` + scalerQ + ` (` + why + ")"
			if edits, ok := autocastEdits(p, first, stmts, "torch.float16"); ok {
				if more, ok := gradScalerEdits(p, loops, bstmt, call); ok {
					fix = Fix(rewrite.Unsafe, "Wrap the forward pass in fp16 autocast and scale the loss with a GradScaler", append(edits, more...)...)
				} else {
					msg += "; the optimizer step is not a plain `opt.step()` after the backward here: add the scaler by hand"
				}
			}
			if halfOverflowFill(p) {
				fix = nil
				msg += halfOverflowFillNote
			}
		}
		if note, ok := linalgNote(p); ok {
			fix = nil
			msg += note
		}
		if viaMethod {
			// The passes spread over the methods the step calls, whose
			// outputs (self.fake_B) the others read: a wrap of one method
			// would hand bf16 tensors to fp32 weights (RuntimeError).
			fix = nil
			msg += "; the step is " + ms.def.ChildByField("name").Text() + "(), which " + ms.where() +
				" calls on every batch: wrap its forward passes and losses (the methods it calls included) in one autocast region, with the backward calls and optimizer steps outside it"
		}
		if fix != nil && callsNumpy(p, step) {
			fix = nil
			msg += "; the loop hands tensors to NumPy (.numpy(), or an item of a NumPy array), which has no bf16/fp16: add .float() there, then wrap"
		}
		if fix != nil && step.Type != "function_definition" && outputsEscape(p, step, stmts) {
			fix = nil
			msg += outputsEscapeNote
		}
		if fix != nil {
			if at := outputsFeedUnwrappedForward(p, step, stmts); at != nil {
				fix = nil
				if len(bceCallsIn(p, at, 1)) > 0 {
					msg += "; its outputs feed the binary cross-entropy at line " + p.LineOf(at) + " outside the wrap, which wants the input and the target in one dtype (RuntimeError on a bf16 input) and which autocast refuses inside: switch to BCEWithLogitsLoss on the logits first, then wrap"
				} else {
					msg += "; its outputs feed the forward pass at line " + p.LineOf(at) + " outside the wrap, whose fp32 weights would get bf16 inputs (RuntimeError): wrap that pass too"
				}
			}
		}
		if fix != nil {
			if at, elsewhere := uncastWrite(p, step); at != nil || elsewhere {
				fix = nil
				msg += uncastWriteNote(p, at)
			}
		}
		if warps {
			// A view-synthesis loss (inverse_warp: `intrinsics_inv @
			// pixel_coords`, then grid_sample) inside the wrap would run
			// its coordinate matmuls in bf16 (blind samples S18L's
			// SfmLearner and S19A's SC-SfMLearner): no fix, which wraps
			// the loss too.
			fix = nil
			msg += "; keep the loss in fp32: this project warps images by coordinates it computes with matmuls (grid_sample), which bf16 would round to steps of several pixels"
		}
		if fix == nil && slices.ContainsFunc(stmts, func(st *rewrite.Node) bool { return len(bceCalls(p, st)) > 0 }) {
			msg += "; but the loss is BCELoss on sigmoid outputs, which autocast refuses (RuntimeError) and bf16 saturates: switch to BCEWithLogitsLoss on the logits first, then wrap"
		}
		if _, optional := apexUse(p); optional {
			fix = nil
			msg += apexOptionalNote
		}
		fix = ownKernelsGate(p, fix, &msg, dpBlocked)
		fix = small.gate(fix, &msg)
		fix, keep := sizeGated(p, stmts, fix, &msg)
		if !keep {
			sizeSilenced++
			continue
		}
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		fix = v.Downgrade(fix)
		// (A pass without a fix joins the step's finding whatever its
		// message: one finding per step, blind sample S26D's HR-VITON,
		// whose discriminator passes in each branch were reported apart.)
		// (Also a pass with a fix after one without: the first's message
		// already asks to wrap it, as StarGAN's generator pass after the
		// discriminator's, blind sample S35D.)
		if i, ok := stepFinding[step]; ok && ((stepBase[i] == msg || fix == nil) && sameApplicability((*p.out)[i].Fix, fix) || (*p.out)[i].Fix == nil) {
			if fix != nil && (*p.out)[i].Fix != nil {
				(*p.out)[i].Fix.Edits = append((*p.out)[i].Fix.Edits, fix.Edits...)
			}
			joinedSteps[i] = append(joinedSteps[i], p.LineOf(first))
			continue
		}
		if _, ok := stepFinding[step]; !ok {
			stepFinding[step] = len(*p.out)
			stepBase[len(*p.out)] = msg
		}
		steps = append(steps, len(*p.out))
		p.Report(first, msg, fix)
	}
	noteStepPasses(p, joinedSteps)
	if trains && len(regions) == 0 && !warpsByCoordinates(p) && (sizeSilenced == 0 || len(steps) > 0) {
		// (An evaluation loop's wrap would take its warping loss along.)
		// Where every training step of the file was left silent for its
		// network's size, the evaluation of that network is too (blind
		// sample S40I's 64-wide traffic model, whose evaluation loop was
		// reported when its training step was not).
		checkEvalAutocast(p, v, bf16, small, steps)
	}
}

// convolutionalNote is what AMP004 says of a convolutional network in
// place of the Transformer's 5.0× (corpus/gpu/amp004_small_cnn.py,
// .notes/amp004-small-cnn-h200.txt; blind samples S26C and S26E measured
// 0.75-1.0× for bf16 alone on their CNNs and judged the 5.0× misleading).
const convolutionalNote = ` together with channels_last (MEM006): convolutional networks gain from bf16 only in that layout and at larger batches (torchvision's EfficientNet-B0, MobileNetV3, ResNet-18 and ResNet-50 ran 1.63-2.03× with both at batch 128 on an H200, 0.87-1.09× with bf16 alone, 0.70-1.04× at batch 32 at 224×224: measure it)`

// unreadNetworkNote is what AMP004 says of the gain where the trained
// network could not be read and the project builds convolutions: the
// Transformer's 5.0× is no promise for a CNN (blind sample S38F: a
// siamese ResNet-50 change detector and a 64-channel GAN given the 5.0×).
const unreadNetworkNote = ` (measured: a Transformer's step 5.0× on an H100; convolutional networks 0.87-1.09× with bf16 alone and 1.63-2.03× with channels_last (MEM006) too, at batch 128 on an H200; gpuopt could not read which this network is: measure it)`

// attentionProject reports a project that builds attention or
// Transformer layers.
func attentionProject(p *Pass) bool {
	return p.Model.ProjectSpells("MultiheadAttention", "TransformerEncoderLayer", "scaled_dot_product_attention", "transformers", "VisionTransformer", "vit_")
}

// smallConvBatch is the largest batch at which convolutionalNote's
// measurement found no gain: torchvision CNNs ran 0.70-1.04× with bf16
// and channels_last at batch 32 of 224×224 images.
const smallConvBatch = 32

// smallConvolutionalBatch reports 2-D convolutional training on small
// images (smallImageTraining: MNIST, CIFAR, 28-32 pixels a side) whose
// loaders all say a batch of smallConvBatch or fewer: less work a step
// than the measurement where the wrap did not pay (blind sample S30Q
// judged an MNIST CNN's finding at batch 32 false). The batch alone does
// not decide it: segmentation and GAN steps at batch 1-16 of large images
// gained (24 such findings judged true).
func smallConvolutionalBatch(p *Pass) bool {
	if conv1dOnlyProject(p) || !smallImageTraining(p) {
		return false
	}
	b, ok := loaderBatch(p)
	return ok && b <= smallConvBatch
}

// tinyConvBatch is the largest loader batch at which AMP004 stays silent
// on any convolutional training, whatever the image size: torchvision's
// ResNet-18/50 and EfficientNet-B0 ran 0.60-0.99× with bf16 (with or
// without channels_last) at batch 2 of 224 and 512 px images on an H200,
// and 0.56-1.02× at batch 8 of 224 px (corpus/gpu/amp004_small_cnn.py
// --batches 2 8, .notes/amp004-tiny-batch-h200.txt; blind sample S40A's
// glaucoma classifier trains at batch 2).
const tinyConvBatch = 4

// tinyConvolutionalBatch reports a file whose GPU loaders show a batch of
// tinyConvBatch or less, in a project of 2-D classifiers (no 3-D
// convolution, no decoder that upsamples).
func tinyConvolutionalBatch(p *Pass) bool {
	if p.Model.ProjectSpells("Conv3d", "ConvTranspose2d", "ConvTranspose3d", "Upsample", "interpolate") {
		// Volumes, and networks that decode back to images (U-Nets,
		// GANs): measured gains at small batches of large images
		// (smallConvolutionalBatch), not this classifier measurement.
		return false
	}
	b, ok := loaderBatch(p)
	return ok && b <= tinyConvBatch
}

// temporalConvolutionNote is convolutionalNote for networks of Conv1d
// layers only, where channels_last (a layout of 4-D tensors) does not
// apply (blind sample S26L).
const temporalConvolutionNote = ` (networks of Conv1d layers gain from it as their channels widen: a temporal convolution network of 256 channels ran 1.45× with it on an H100, a PointNet of 1×1 convolutions 0.88-1.02× on an H200: measure it)`

// convolutionalNoteFor is the note for the file's convolutional networks:
// temporalConvolutionNote in a conv1dOnlyProject, convolutionalNote
// otherwise.
func convolutionalNoteFor(p *Pass) string {
	if conv1dOnlyProject(p) {
		return temporalConvolutionNote
	}
	if groupNormOnly(p) && !p.Model.ProjectSpells("torchvision", "timm") {
		// (A library CNN's BatchNorm is not spelled in the project.)
		return groupNormConvolutionNote
	}
	return convolutionalNote
}

// groupNormConvolutionNote replaces convolutionalNote for networks
// normalised by GroupNorm (groupNormOnly), where channels_last costs more
// than it gains.
const groupNormConvolutionNote = ` (measure it: torchvision's CNNs ran 0.87-1.09× with bf16 alone at batch 128 on an H200, and gained 1.63-2.03× only with channels_last too, which does not pay here: this project's networks normalise with GroupNorm, whose CUDA kernel works in NCHW, and a bf16 conv + GroupNorm stack ran 0.76-0.82× in channels_last)`

// cnnArchitectures are torchvision's convolutional model families.
var cnnArchitectures = []string{"resnet", "resnext", "wide_resnet", "efficientnet", "mobilenet", "densenet", "vgg", "inception", "googlenet", "convnext", "regnet", "shufflenet", "squeezenet", "mnasnet", "alexnet"}

// convolutionalTraining reports a file whose training steps run
// convolutional networks only: every trained network (trainedNetworks)
// builds convolutions and no attention, or, where they cannot be read,
// the file builds torchvision CNNs and no other network.
func convolutionalTraining(p *Pass) bool {
	return p.Memo("amp004.convolutionalTraining", func() any {
		if !p.Model.ProjectSpells("Conv2d", "Conv3d", "Conv1d", "torchvision", "timm", "efficientnet_pytorch") {
			return false // no convolution anywhere: the cheap answer first
		}
		if convolutionsOnly(p) && p.Model.ProjectSpells("Conv2d", "Conv3d", "Conv1d") && !p.Model.ProjectSpells("LSTM", "GRU", "MultiheadAttention", "TransformerEncoderLayer", "scaled_dot_product_attention") {
			// AMP005's reading: cuDNN's work with no large matmul, in a
			// project that builds convolutions and no recurrent or
			// attention layer.
			return true
		}
		walk := &widthWalk{}
		nets, ok := trainedNetworks(p, &widthFrame{m: p.Model, walk: walk})
		if ok && len(nets) > 0 {
			convs := 0
			for _, net := range nets {
				if parametersOnly(net.m, net.def) {
					continue // learnable proxies or prototypes beside the network: no layer
				}
				if !convolutional(net.m, net.def) && !buildsLibraryCNN(net.m, net.def) || attentionIn(net) {
					return false
				}
				convs++
			}
			return convs > 0
		}
		cnn, other := libraryCNNs(p)
		return cnn && !other && !p.Model.Imports("transformers")
	}).(bool)
}

// libraryCNNs reports whether the file builds library CNNs (cnn) and
// whether it builds any other library network (other): torchvision's
// architectures (cnnArchitectures, not a ViT, Swin or detection model),
// timm models named for convolutional families (convTimmModel), and
// efficientnet_pytorch's EfficientNet, called here or by a project
// network class it builds (blind sample S35N's ECL, a ResNet-50 backbone
// inside a class of models/ecl.py, and its EfficientNetV2 of timm).
func libraryCNNs(p *Pass) (cnn, other bool) {
	r := p.Memo("amp004.libraryCNNs", func() any {
		var cnn, other bool
		note := func(q string, call *rewrite.Node) {
			c, o := libraryNetwork(q, call)
			cnn, other = cnn || c, other || o
		}
		for _, call := range p.File.OfType("call") {
			note(p.Model.CalleeName(call), call)
			if d := p.Model.ImportedDef(call.ChildByField("function")); d != nil && d.Class {
				// (Summaries keep callee names, not arguments: a timm
				// model built by a project class counts as other.)
				p.Model.ClassCalls(d, func(q string) bool {
					note(q, nil)
					return false
				})
			}
		}
		return [2]bool{cnn, other}
	}).([2]bool)
	return r[0], r[1]
}

// libraryNetwork says whether the callable q (called by call, nil when
// only its name is known) builds a library CNN or another library
// network: torchvision's architectures (cnnArchitectures, not a ViT,
// Swin or detection model), timm models named for convolutional families
// (convTimmModel), efficientnet_pytorch's EfficientNet; from_pretrained
// and transformers' models are other networks.
func libraryNetwork(q string, call *rewrite.Node) (cnn, other bool) {
	switch {
	case strings.HasPrefix(q, "torchvision.models."):
		name := strings.TrimPrefix(q, "torchvision.models.")
		if strings.Contains(name, ".") || strings.HasSuffix(name, "_Weights") {
			return false, false
		}
		isCNN := slices.ContainsFunc(cnnArchitectures, func(a string) bool { return strings.HasPrefix(name, a) })
		return isCNN, !isCNN
	case q == "timm.create_model":
		isCNN := call != nil && convTimmModel(rewrite.Arg(call, 0, "model_name"))
		return isCNN, !isCNN
	case strings.HasPrefix(q, "efficientnet_pytorch."), strings.HasSuffix(q, "EfficientNet.from_pretrained"), strings.HasSuffix(q, "EfficientNet.from_name"):
		// (efficientnet_pytorch's classmethods, also on the copies of its
		// model.py that projects keep: blind sample S37E's
		// FaceForensics_Detection, `model_efficientnet.model`.)
		return true, false
	case strings.HasSuffix(q, ".from_pretrained") || strings.HasPrefix(q, "transformers."):
		return false, true
	}
	return false, false
}

// parametersOnly reports a module class that builds no layer: its torch.nn
// calls are nn.Parameter and initialisers (ECL's balanced_proxies, blind
// sample S35N), nothing autocast or cuDNN would run.
func parametersOnly(m *rewrite.Model, def *rewrite.Node) bool {
	for _, call := range m.File.OfTypeIn(def, "call") {
		q := m.CalleeName(call)
		if !strings.HasPrefix(q, "torch.nn.") || strings.HasPrefix(q, "torch.nn.init.") || strings.HasPrefix(q, "torch.nn.functional.") {
			continue
		}
		switch q {
		case "torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Module.__init__", "torch.nn.ParameterList", "torch.nn.ParameterDict":
			continue
		}
		return false
	}
	return true
}

// buildsLibraryCNN reports a network class whose body builds a
// torchvision CNN architecture (`models.resnet50(weights=...)` as its
// backbone: blind sample S35N's ECL) and no other torchvision model.
func buildsLibraryCNN(m *rewrite.Model, def *rewrite.Node) bool {
	cnn := false
	for _, call := range m.File.OfTypeIn(def, "call") {
		q := m.CalleeName(call)
		if !strings.HasPrefix(q, "torchvision.models.") {
			continue
		}
		c, o := libraryNetwork(q, call)
		if o {
			return false
		}
		cnn = cnn || c
	}
	return cnn
}

// attentionIn reports a network frame that calls attention or a
// Transformer layer (attends), or multiplies matrices with @.
func attentionIn(net *widthFrame) bool {
	found := false
	net.def.Walk(func(n *rewrite.Node) bool {
		if found {
			return false
		}
		switch {
		case n.Type == "call" && attends(net, n):
			found = true
		case n.Type == "binary_operator" && n.ChildByField("operator").Text() == "@":
			found = true
		}
		return !found
	})
	return found
}

// autocastRegions returns the file's with statements that enter autocast
// (`with torch.autocast("cuda", ...):`, `with autocast():`), and only:
// whether every use of an autocast name outside the imports is such a
// with item. Any other use (a decorator, a flag, a context manager picked
// at run time) leaves no step's precision readable.
func autocastRegions(p *Pass) (withs []*rewrite.Node, only bool) {
	for _, id := range p.File.OfType("identifier") {
		if !containsAutocast(id.Text()) || id.Ancestor("import_from_statement") != nil || id.Ancestor("import_statement") != nil {
			continue
		}
		item := id.Ancestor("with_item")
		if item == nil || len(item.NamedChildren()) == 0 || item.NamedChildren()[0].Type != "call" || !item.NamedChildren()[0].ChildByField("function").Contains(id) {
			return nil, false
		}
		if w := item.Ancestor("with_statement"); w != nil && !slices.Contains(withs, w) {
			withs = append(withs, w)
		}
	}
	return withs, true
}

// spelledOutsideRegions reports an identifier spelled one of names outside
// the with items of the autocast regions (`dtype=torch.bfloat16` of a
// region says nothing of the other steps).
func spelledOutsideRegions(p *Pass, names []string, regions []*rewrite.Node) bool {
	if !p.File.SpellsAny(names) {
		return false
	}
	if len(regions) == 0 {
		return true
	}
	for _, name := range names {
		for _, id := range p.File.Identifiers(name) {
			item := id.Ancestor("with_item")
			if item == nil || !slices.Contains(regions, item.Ancestor("with_statement")) {
				return true
			}
		}
	}
	return false
}

// coveredByAutocast reports a training step that an autocast region of the
// file may cover: one around its forward pass, around or inside the step,
// or one whose place the step cannot be told apart from (outside any
// training loop: a helper the step may call). A region inside another
// training loop covers only that loop: a file whose first loop was wrapped
// (by hand, or by this rule's fix applied to one finding) still gets the
// finding for its second (blind sample S26D's cp-vton-plus, whose TOM loop
// lost its finding once the GMM loop was wrapped).
func coveredByAutocast(p *Pass, regions []*rewrite.Node, step, first *rewrite.Node) bool {
	for _, w := range regions {
		if w.Contains(first) || step.Contains(w) || w.Contains(step) {
			return true
		}
		var trainingLoop *rewrite.Node
		around := p.Model.EnclosingLoops(w)
		for _, l := range around {
			if p.Model.Loop(l).Trains() {
				trainingLoop = l
				break
			}
		}
		if trainingLoop == nil && evaluationRegion(p, w, around) {
			// A region in or around an evaluation loop (gpuopt's own fix
			// of an evaluation finding) covers that loop only: the
			// training step keeps its finding (blind sample S27F's
			// SimCSE, where fixing the evaluation hid the step's).
			continue
		}
		if trainingLoop == nil {
			return true
		}
		if trainingLoop.Contains(step) && !(step != trainingLoop && rewrite.IsLoop(step) && p.Model.Loop(step).Trains()) {
			// (A training loop nested in the region's, such as a WGAN's
			// critic steps beside a generator step the region wraps, is a
			// step of its own: blind sample S37K, where wrapping the
			// generator's step hid the critic's finding.)
			return true
		}
	}
	return false
}

// fp32Fallback reports a step in a function whose every call here sits
// in a branch of an if statement whose other branch calls a function of
// this file holding an autocast region: the file already trains in mixed
// precision, and this function is its fp32 path (`if
// use_mixed_precision: train_epoch_optimized(...) else: train_epoch(...)`,
// blind sample S30B's two-towers).
func fp32Fallback(p *Pass, regions []*rewrite.Node, step *rewrite.Node) bool {
	if len(regions) == 0 {
		return false
	}
	def := step
	if def.Type != "function_definition" {
		def = step.Ancestor("function_definition")
	}
	if def == nil {
		return false
	}
	sites := p.Model.CallSites(def)
	for _, call := range sites {
		ifs := call.Ancestor("if_statement")
		if ifs == nil || !otherBranchAutocasts(p, regions, ifs, call) {
			return false
		}
	}
	return len(sites) > 0
}

// otherBranchAutocasts reports an if statement one of whose branches,
// not the one holding call, calls a function of this file that holds
// one of the autocast regions.
func otherBranchAutocasts(p *Pass, regions []*rewrite.Node, ifs, call *rewrite.Node) bool {
	var branches []*rewrite.Node
	if c := ifs.ChildByField("consequence"); c != nil {
		branches = append(branches, c)
	}
	for _, c := range ifs.Children {
		if c.Is("else_clause", "elif_clause") {
			branches = append(branches, c)
		}
	}
	for _, b := range branches {
		if b.Contains(call) {
			continue
		}
		for _, c := range p.File.OfTypeIn(b, "call") {
			d := p.Model.FunctionDef(c)
			if d != nil && slices.ContainsFunc(regions, d.Contains) {
				return true
			}
		}
	}
	return false
}

// evaluationRegion reports an autocast region that sits in, or holds, a
// loop that does not train (around: the loops around the region).
func evaluationRegion(p *Pass, w *rewrite.Node, around []*rewrite.Node) bool {
	if len(around) > 0 {
		return true // (none of them trains: the caller checked)
	}
	found := false
	w.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) {
			return false
		}
		if n.Is("for_statement", "while_statement") && !p.Model.Loop(n).Trains() {
			found = true
		}
		return !found
	})
	return found
}

// inputGradientLoop reports a loop that steps no optimizer of parameters
// and reads the gradient of a tensor it feeds the network (`loss.backward()`
// then `X_pgd.grad.sign()`): an adversarial attack, whose backward serves
// its input. Under bf16 autocast its perturbations, and the robust
// accuracy it reports, would change (blind sample S14H's TRADES
// evaluation).
func inputGradientLoop(p *Pass, loop *rewrite.Node) bool {
	if p.Model.Loop(loop).OptimizerStep && !stepsOnlyInputs(p, loop) {
		perturbed := perturbationOptimizers(p, loop)
		if len(perturbed) == 0 {
			return false
		}
		// An optimizer built before the loop over the perturbation alone
		// (`optim.SGD([delta], lr=...)`), whose gradient the loop reads:
		// an l2 attack (blind sample S20E's TRADES-AWP).
		for _, n := range p.Model.LoopBodyNodes(loop) {
			if n.Type == "attribute" && n.ChildByField("attribute").Text() == "grad" {
				if obj := n.ChildByField("object"); obj.Is("identifier") && perturbed[obj.Text()] {
					return true
				}
			}
		}
		return false
	}
	fed := map[string]bool{}
	var grads []string
	for _, n := range p.Model.LoopBodyNodes(loop) {
		switch n.Type {
		case "call":
			if args := n.ChildByField("arguments"); args != nil {
				for _, a := range args.NamedChildren() {
					switch a.Type {
					case "identifier":
						fed[a.Text()] = true
					case "binary_operator":
						// `model(normalize(X + delta))`: the perturbation
						// added to the input (blind sample S20E's PGD).
						a.Walk(func(c *rewrite.Node) bool {
							if c.Type == "identifier" {
								fed[c.Text()] = true
							}
							return c.Is("binary_operator", "parenthesized_expression", "identifier")
						})
					}
				}
			}
		case "attribute":
			if obj := n.ChildByField("object"); obj != nil && obj.Type == "identifier" && n.ChildByField("attribute").Text() == "grad" {
				grads = append(grads, obj.Text())
			}
		}
	}
	for _, g := range grads {
		if fed[g] {
			return true
		}
	}
	return false
}

// stepsOnlyInputs reports a loop whose optimizers are all built over a
// list of the loop's own tensors (`optim.SGD([X_pgd], lr=...)` rebuilt
// each step), not over a module's parameters.
func stepsOnlyInputs(p *Pass, loop *rewrite.Node) bool {
	body := p.Model.LoopBodyNodes(loop)
	if !slices.ContainsFunc(body, func(n *rewrite.Node) bool {
		if n.Type != "call" {
			return false
		}
		arg := rewrite.Arg(n, 0, "params")
		return arg != nil && arg.Type == "list"
	}) {
		return false // no call over a list: not one such optimizer (and Facts.What, per call, is the cost of a training loop)
	}
	found := false
	for _, n := range body {
		if n.Type != "call" || p.Facts.What(n).Kind != KindOptimizer {
			continue
		}
		found = true
		if arg := rewrite.Arg(n, 0, "params"); arg == nil || arg.Type != "list" {
			return false
		}
	}
	return found
}

// perturbationOptimizers returns the tensors that the optimizers a loop
// steps are built over, when every one is built (before the loop) over a
// list of plain names (`optim.SGD([delta], lr=...)`), not a module's
// parameters; nil otherwise.
func perturbationOptimizers(p *Pass, loop *rewrite.Node) map[string]bool {
	var names map[string]bool
	for _, n := range p.Model.LoopBodyNodes(loop) {
		if n.Type != "call" || callAttr(n) != "step" {
			continue
		}
		recv := n.ChildByField("function").ChildByField("object")
		if !recv.Is("identifier") {
			continue
		}
		built := p.Model.ValueOf(recv)
		if built == nil || built.Type != "call" || p.Facts.What(built).Kind != KindOptimizer {
			if p.Facts.What(recv).Kind == KindOptimizer {
				return nil // an optimizer gpuopt cannot follow to its construction
			}
			continue // a scheduler's step
		}
		tensors, ok := plainTensorParams(p, built)
		if !ok {
			return nil
		}
		for _, t := range tensors {
			if names == nil {
				names = map[string]bool{}
			}
			names[t] = true
		}
	}
	return names
}

// stepOfEval returns the training-step finding (indexes in p.out) an
// evaluation loop's finding joins: the one in the same class or function,
// else the file's first.
func stepOfEval(p *Pass, steps []int, call *rewrite.Node) (index int, ok bool) {
	if len(steps) == 0 {
		return 0, false
	}
	scope := enclosingDefinition(call)
	for _, i := range steps {
		if fd := (*p.out)[i]; scope != nil && scope.Start <= fd.Start && fd.End <= scope.End {
			return i, true
		}
	}
	return steps[0], true
}

// evalJoin is an evaluation loop whose finding joined a training step's:
// its line, whether the step's fix wraps it, and what keeps it unwrapped.
type evalJoin struct {
	line    string
	wrapped bool
	caveat  string // "; ..." clauses the step's message does not say already
}

// newCaveats returns the "; "-separated clauses of caveats that message
// does not contain.
func newCaveats(message, caveats string) string {
	var out []string
	for _, c := range strings.Split(strings.TrimPrefix(caveats, "; "), "; ") {
		if c != "" && !strings.Contains(message, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "; " + strings.Join(out, "; ")
}

// noteEvalLoops adds to each training-step finding the lines of the
// evaluation loops that joined it (stepOfEval): those its fix wraps, and
// each other with what holds its wrap back.
func noteEvalLoops(p *Pass, joined map[int][]evalJoin) {
	for i, loops := range joined {
		fd := &(*p.out)[i]
		var wrapped []string
		for _, l := range loops {
			if l.wrapped {
				wrapped = append(wrapped, l.line)
			}
		}
		// Say who wraps them: `gpuopt fix` only where the step's fix is
		// applied (a hint is shown, never applied: blind samples S33A,
		// S33O, S33Q and S33S read "the fix wraps it" where fix changed
		// nothing).
		who := "the fix wraps"
		switch {
		case fd.Fix == nil:
			who = "wrap"
		case fd.Fix.Applicability == rewrite.Hint:
			who = "the suggested edit wraps"
		}
		switch len(wrapped) {
		case 0:
		case 1:
			fd.Message += "; its evaluation loop at line " + wrapped[0] + " runs in fp32 too (" + who + " it as well)"
		default:
			fd.Message += "; its evaluation loops at lines " + strings.Join(wrapped, ", ") + " run in fp32 too (" + who + " them as well)"
		}
		for _, l := range loops {
			if !l.wrapped {
				fd.Message += "; its evaluation loop at line " + l.line + " runs in fp32 too, not wrapped by the fix" + l.caveat
			}
		}
	}
}

// noteStepPasses names, in each training step's finding, the lines of the
// step's other forward passes that joined it.
func noteStepPasses(p *Pass, joined map[int][]string) {
	for i, lines := range joined {
		fd := &(*p.out)[i]
		what := "its forward pass at line " + lines[0] + " runs"
		if len(lines) > 1 {
			what = "its forward passes at lines " + strings.Join(lines, ", ") + " run"
		}
		fd.Message += "; " + what + " in fp32 too"
		if fd.Fix != nil {
			fd.Message += " (the fix wraps them all)"
		}
	}
}

// sameApplicability reports two fixes that can be one: both absent, or
// both present with the same applicability.
func sameApplicability(a, b *rewrite.Fix) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Applicability == b.Applicability
}

// enclosingDefinition is the outermost class, or else the function,
// that holds n (nil at module level).
func enclosingDefinition(n *rewrite.Node) *rewrite.Node {
	if c := n.Ancestor("class_definition"); c != nil {
		for up := c.Ancestor("class_definition"); up != nil; up = up.Ancestor("class_definition") {
			c = up
		}
		return c
	}
	return n.Ancestor("function_definition")
}

// sizeGated applies what AMP004 knows of the size of the networks the
// statements run: narrow by the code's own widths (no finding: such steps
// ran 0.65-0.9× with autocast on an H100, and blind sample HH judged even
// the hedged finding on ten MNIST GANs false), narrow at a flag's default
// (a hint saying so: the run may widen it), shown large (the fix as it
// is), or neither (a hint: measure first). keep is false when the finding
// should not be reported.
func sizeGated(p *Pass, stmts []*rewrite.Node, fix *rewrite.Fix, msg *string) (_ *rewrite.Fix, keep bool) {
	if castFree(p, stmts) || circuitSimulation(p) {
		return nil, false // embedding lookups only, or a circuit simulation: autocast speeds up nothing
	}
	g := narrowNetwork(p, stmts)
	if g.width > 0 {
		// Narrow by the code's own widths, or at its flags' defaults
		// (what the script runs unless told otherwise): blind samples HH
		// and OO judged even the hedged finding false on such networks.
		return nil, false
	}
	if largeNetwork(p, stmts) {
		return fix, true
	}
	if linearOnly(p) {
		if b, ok := loaderBatch(p); ok && b < mlpGainBatch {
			// An MLP at a batch the code shows: its matmuls are as
			// large as the batch, and 2048/4096-wide MLPs ran
			// 0.75-0.91× with autocast at 256-512 (blind sample WW
			// judged the hedged hint false on the MoA MLPs at 256).
			return nil, false
		}
	}
	// The gate quotes the Transformer's 5.0× beside the narrow networks'
	// slowdowns: the step's message does not lead with it too (blind
	// samples S38V and S38W read the leading 5.0× as the promise).
	*msg = strings.Replace(*msg, " (5.0× measured on an H100)", "", 1)
	*msg += sizeGate
	if fix != nil {
		fix.Applicability = rewrite.Hint
	}
	return fix, true
}

// pythonBuiltins are the builtins a model class calls that build no layer.
var pythonBuiltins = map[string]bool{"super": true, "len": true, "range": true, "print": true, "isinstance": true,
	"getattr": true, "setattr": true, "hasattr": true, "int": true, "float": true, "list": true, "tuple": true,
	"dict": true, "zip": true, "enumerate": true, "min": true, "max": true, "sum": true, "type": true}

// recurrentGate is what AMP004 knows of a small recurrent model: one built
// from nn.LSTM/GRU/RNN layers and nothing that gains more from autocast
// (no convolution, attention or Transformer layer), trained at a small
// literal batch size. Such a step is a chain of small per-timestep matrix
// products that half precision hardly speeds up while autocast adds casts:
// a 1-layer LSTM language model (hidden 1024, batch 20) ran 0.91× with bf16
// autocast on an H100.
type recurrentGate struct {
	layer string // "nn.LSTM"; "" when the gate does not apply
	batch int
}

// gate turns fix into a hint and says why when the model is a small
// recurrent one.
func (g recurrentGate) gate(fix *rewrite.Fix, msg *string) *rewrite.Fix {
	if g.layer == "" {
		return fix
	}
	*msg += "; but this is a recurrent model (" + g.layer + ") trained at batch " + strconv.Itoa(g.batch) +
		": autocast hardly pays there (a 1-layer LSTM language model at batch 20 ran 0.91× with it on an H100), so measure before keeping it"
	if fix != nil {
		fix.Applicability = rewrite.Hint
	}
	return fix
}

// cudnnRecurrentLayer returns the recurrent layer (nn.LSTM, nn.GRU,
// nn.RNN) the file builds, or an nn.Module class of a project module it
// builds builds; "" when there is none.
func cudnnRecurrentLayer(p *Pass) string {
	return p.Memo("amp.cudnnRecurrentLayer", func() any {
		for _, call := range torchCalls(p) {
			q := p.Model.CalleeName(call)
			if recurrentLayer(q) {
				return "nn." + q[len("torch.nn."):]
			}
			fn := call.ChildByField("function")
			if fn == nil || !fn.Is("identifier", "attribute") {
				continue
			}
			if d := p.Model.ImportedDef(fn); d != nil && d.Class {
				// Also through the project classes it builds (a
				// hierarchical attention network whose word and sentence
				// encoders, each in a module of its own, hold the GRUs:
				// blind sample S36P).
				if layer := projectClassLayer(p.Model, d); layer != "" {
					return "nn." + layer[len("torch.nn."):]
				}
			}
		}
		return ""
	}).(string)
}

// recurrentLayerCalled returns the cuDNN recurrent layer ("nn.GRU") of a
// network the statements call, read where the network is built: a model
// handed to a training function of an engine module by the script that
// builds it (`engine.train(model, ...)` with `model = CaptchaModel(...)`
// of model.py holding an nn.GRU: blind sample S39B), which
// cudnnRecurrentLayer, reading the file's own constructions, does not
// see. "" when none is found.
func recurrentLayerCalled(p *Pass, stmts []*rewrite.Node) string {
	layer := ""
	for _, st := range stmts {
		st.Walk(func(n *rewrite.Node) bool {
			if layer != "" || rewrite.IsDefOrLambda(n) {
				return false
			}
			if n.Type != "call" {
				return true
			}
			fn := n.ChildByField("function")
			if fn == nil || fn.Type != "identifier" {
				return true
			}
			for _, o := range p.Model.OriginsAcross(fn) {
				m := p.Model
				if o.Model != nil {
					m = o.Model
				}
				switch {
				case o.Def != nil && o.Def.Class:
					layer = projectClassLayer(m, o.Def)
				case o.Expr != nil && o.Expr.Type == "call":
					layer = recurrentLayerIn(m, o.Expr)
				}
				if layer != "" {
					break
				}
			}
			return layer == ""
		})
	}
	if layer == "" {
		return ""
	}
	return "nn." + layer[len("torch.nn."):]
}

// projectClassLayer returns the cuDNN recurrent layer a project class
// builds, directly or through the project classes it builds.
func projectClassLayer(m *rewrite.Model, d *rewrite.ProjectDef) string {
	layer := ""
	m.ClassAny(d, func(c *rewrite.ProjectDef) bool {
		for _, q := range c.Calls {
			if recurrentLayer(q) {
				layer = q
				return true
			}
		}
		return false
	})
	return layer
}

// recurrentLayerIn returns the qualified name of a cuDNN recurrent layer
// that the code of def builds, directly or through the project classes
// it builds.
func recurrentLayerIn(m *rewrite.Model, def *rewrite.Node) string {
	layer := ""
	def.Walk(func(n *rewrite.Node) bool {
		if layer != "" {
			return false
		}
		if n.Type != "call" {
			return true
		}
		if q := m.CalleeName(n); recurrentLayer(q) {
			layer = q
			return false
		}
		if fn := n.ChildByField("function"); fn != nil && fn.Is("identifier", "attribute") {
			if d := m.ImportedDef(fn); d != nil && d.Class {
				layer = projectClassLayer(m, d)
			}
		}
		return true
	})
	return layer
}

// overflowFill matches a masked_fill whose constant is beyond fp16's
// range (|x| > 65504): `scores.masked_fill(mask, -1e20)`, `-1e9`.
var overflowFill = regexp.MustCompile(`masked_fill_?\(.*,\s*(?:value\s*=\s*)?-?\s*\d+(?:\.\d*)?[eE]\+?0*(?:[5-9]|[1-9]\d+)\s*\)`)

// halfOverflowFill reports a project that fills tensors with a constant
// fp16 cannot hold: under fp16 autocast the filled tensor is half and
// masked_fill raises ("value cannot be converted to type at::Half without
// overflow"; blind sample S40G's pointer LSTM, masking scores with -1e20).
func halfOverflowFill(p *Pass) bool {
	return p.Memo("amp004.halfOverflowFill", func() any {
		for _, src := range p.Model.ProjectSourcesSpelling("masked_fill", "masked_fill_") {
			if overflowFill.Match(src) {
				return true
			}
		}
		return false
	}).(bool)
}

// halfOverflowFillNote is what AMP004 says where halfOverflowFill holds.
const halfOverflowFillNote = "; but the project fills tensors with constants beyond fp16's range (masked_fill(..., -1e9 or -1e20)), which raises under fp16 autocast: fill with torch.finfo(x.dtype).min (or -1e4) first, then wrap"

// recurrentFP16Reason is why AMP004 asks for fp16 and a GradScaler on a
// GPU with fast bf16: the network has a cuDNN recurrent layer.
func recurrentFP16Reason(layer string) string {
	return "not bf16: its " + layer + " runs in fp16 under autocast whatever the dtype asked (cuDNN's RNN autocast casts to float16: measured on torch 2.11, .notes/rnn-autocast-h200.txt), and fp16 needs loss scaling"
}

// smallRecurrent finds the file's recurrent layers and its literal batch
// size (`batch_size = 20`, `batch_size=20`, the largest if several); the
// gate applies at 64 or less.
func smallRecurrent(p *Pass) recurrentGate {
	// (No shortcut on the file's spelling: the recurrent layer may be
	// built by a model class of another module, `from models.lstm import
	// Classifier`.)
	layer := ""
	for _, call := range torchCalls(p) {
		q := p.Model.CalleeName(call)
		switch {
		case recurrentLayer(q):
			layer = "nn." + q[len("torch.nn."):]
		case strings.HasPrefix(q, "torch.nn.Conv") || strings.HasPrefix(q, "torch.nn.Transformer") || q == "torch.nn.MultiheadAttention" ||
			strings.HasPrefix(q, "torchvision.models.") || strings.HasPrefix(q, "transformers."):
			return recurrentGate{}
		}
		if fn := call.ChildByField("function"); fn != nil && fn.Is("identifier", "attribute") {
			// A model class of a sibling module: its layers decide too; one
			// that calls anything but torch may build anything.
			d := p.Model.ImportedDef(fn)
			if d == nil || !d.Class || !slices.Contains(d.Bases, "torch.nn.Module") {
				continue
			}
			for _, c := range d.Calls {
				switch {
				case recurrentLayer(c):
					layer = "nn." + c[len("torch.nn."):]
				case pythonBuiltins[c]:
					// super().__init__(), len(x), range(n): no layers
				case strings.HasPrefix(c, "torch.nn.Conv") || strings.HasPrefix(c, "torch.nn.Transformer") || c == "torch.nn.MultiheadAttention" || !strings.HasPrefix(c, "torch."):
					return recurrentGate{}
				}
			}
		}
	}
	if layer == "" {
		return recurrentGate{}
	}
	batch := 0
	var ids []*rewrite.Node
	for _, name := range []string{"batch_size", "BATCH_SIZE", "batchsize", "batchSize"} {
		ids = append(ids, p.File.Identifiers(name)...)
	}
	for _, id := range ids {
		var value *rewrite.Node
		switch {
		case id.Field == "left" && id.Parent.Type == "assignment":
			value = id.Parent.ChildByField("right")
		case id.Field == "name" && id.Parent.Type == "keyword_argument":
			value = id.Parent.ChildByField("value")
		case id.Field == "attribute" && id.Parent.Field == "left" && id.Parent.Parent.Type == "assignment":
			value = id.Parent.Parent.ChildByField("right") // args.batch_size = 1
		}
		if value == nil || value.Type != "integer" {
			continue
		}
		if n, err := strconv.Atoi(value.Text()); err == nil && n > batch {
			batch = n
		}
	}
	if batch == 0 || batch > 64 {
		return recurrentGate{}
	}
	return recurrentGate{layer: layer, batch: batch}
}

// checkEvalAutocast reports the forward passes of evaluation loops (a loop
// calling a model under torch.no_grad()/inference_mode(), or after
// `.eval()` in the same function) of a file that trains.
// layerLoop reports a for loop over layers, not data: its target is
// called in the body (`for conv_i in self.cconv: x = pool(conv_i(x))`, a
// shape probe run once in __init__ on a dummy input: blind sample
// S38N's EEG CNN, reported as an evaluation loop).
func layerLoop(loop *rewrite.Node) bool {
	if loop.Type != "for_statement" {
		return false
	}
	target := loop.ChildByField("left")
	body := loop.ChildByField("body")
	if target == nil || body == nil || target.Type != "identifier" {
		return false
	}
	called := false
	body.Walk(func(n *rewrite.Node) bool {
		if n.Type == "call" {
			if fn := n.ChildByField("function"); fn != nil && fn.Type == "identifier" && fn.Text() == target.Text() {
				called = true
			}
		}
		return !called
	})
	return called
}

func checkEvalAutocast(p *Pass, v Verdict, bf16 bool, small recurrentGate, steps []int) {
	dtype := "torch.float16"
	if bf16 {
		dtype = "torch.bfloat16"
	}
	seen := map[*rewrite.Node]bool{}
	hinted := map[*rewrite.Node]bool{} // outermost loops reported
	joined := map[int][]evalJoin{}     // training findings -> the evaluation loops that joined them
	defer noteEvalLoops(p, joined)
	for _, call := range p.File.OfType("call") {
		// The cheap tests first: most calls are in no loop, or in a
		// training loop (checkMissingAutocast's), and IsModule is costly.
		loops := p.Model.EnclosingLoops(call)
		if len(loops) == 0 || p.Model.Loop(loops[0]).Trains() {
			continue
		}
		if lossCall(call) || !p.Model.IsModule(call.ChildByField("function")) || lossModuleCall(p, call) || !evaluates(p, call) || onCPU(p, call) || hostBatchLoop(p, loops[0]) {
			continue // a loss is not a forward pass: it joins one below
		}
		if insideTrainingStep(p, loops) || periodicInTraining(p, call) || len(loops) == 1 && layerLoop(loops[0]) {
			continue
		}
		if showsFewBatches(p, loops[0]) || loopBatchOne(p, loops[0]) || autoregressive(p, loops[0], call) || evaluatesOnce(p, loops[len(loops)-1]) || underRemainderGuard(p, loops[len(loops)-1], 0, false) {
			// A loader of batch_size=1, or generation step by step from
			// the loop's own outputs: small kernels bound by their
			// launches, where autocast's casts (again at every step of a
			// generation: the cast cache lasts one `with` block) cost
			// more than half precision saves. Blind samples KK, II and WW
			// judged even the hedged hints false. An evaluation run every
			// few epochs (its loop, or every call of its function, under
			// an `epoch % 25 == 0` guard) is a small share of the run
			// (blind sample S18D's DCL kNN monitor).
			continue
		}
		// The statement of the loop's body that holds the call (an if/else
		// choosing between two forwards is wrapped whole).
		stmt := rewrite.Statement(call)
		for stmt != nil && stmt.Parent != nil && stmt.Parent.Parent != loops[0] {
			stmt = rewrite.Statement(stmt.Parent)
		}
		if stmt == nil || stmt.Parent == nil || seen[stmt] || stmt.Is("function_definition", "class_definition", "decorated_definition") {
			continue
		}
		stmts := evalForwardSpan(p, stmt)
		for _, st := range stmts {
			seen[st] = true
		}
		base := "this evaluation loop runs the forward pass in fp32: wrap it in torch.autocast(\"cuda\", dtype=" + dtype + ")"
		msg := base
		var fix *rewrite.Fix
		enabled, dpBlocked := "", false
		if dtype == "torch.bfloat16" {
			enabled, dpBlocked = dataParallelGuard(p, call, stmts)
		}
		if edits, ok := autocastEditsEnabled(p, call, stmts, dtype, enabled); ok {
			fix = Fix(rewrite.Unsafe, "Run the evaluation forward pass under autocast", edits...)
			if enabled != "" {
				msg += dataParallelGuardNote
			}
		}
		if note, ok := linalgNote(p); ok {
			fix = nil
			msg += note
		}
		if fix != nil && callsNumpy(p, loops[0]) {
			fix = nil
			msg += "; the loop hands outputs to NumPy (.numpy(), or an item of a NumPy array), which has no bf16/fp16: add .float() there, then wrap"
		}
		if fix != nil && outputsEscape(p, loops[0], stmts) {
			fix = nil
			msg += outputsEscapeNote
		}
		if fix != nil {
			if at, elsewhere := uncastWrite(p, loops[0]); at != nil || elsewhere {
				fix = nil
				msg += uncastWriteNote(p, at)
			}
		}
		if slices.ContainsFunc(p.Model.LoopBodyNodes(loops[0]), func(n *rewrite.Node) bool { return n.Type == "expression_statement" && len(bceCalls(p, n)) > 0 }) {
			// The bf16 outputs reach a binary cross-entropy, inside the
			// wrap or after it: either raises.
			fix = nil
			msg += "; but the loop computes BCELoss on sigmoid outputs, which autocast refuses (RuntimeError) and bf16 saturates: switch to BCEWithLogitsLoss on the logits first, then wrap"
		}
		// (A cuDNN recurrent layer runs in fp16 under the bf16 wrap: no
		// backward here, so no loss scaling is missed.)
		fix = ownKernelsGate(p, fix, &msg, dpBlocked)
		fix = small.gate(fix, &msg)
		fix, keep := sizeGated(p, stmts, fix, &msg)
		if !keep {
			continue
		}
		outer := loops[len(loops)-1]
		if (fix == nil || fix.Applicability == rewrite.Hint) && hinted[outer] {
			// A second forward of the same evaluation loop (a recurrent
			// attention model's glimpse loop and its last glimpse): the
			// first hint covers the loop (blind sample RR).
			continue
		}
		hinted[outer] = true
		if i, ok := stepOfEval(p, steps, call); ok {
			// One finding for the training step and the evaluation
			// loops beside it: the evaluation is a small share of the
			// run (blind samples S24C, S24D, S26C and S26L judged the
			// separate findings on per-epoch validation false, "the
			// training-step finding is the one that matters"). Its wrap
			// joins the step's fix where they can be one.
			fd := &(*p.out)[i]
			switch {
			case fix == nil:
				joined[i] = append(joined[i], evalJoin{line: p.LineOf(call), caveat: newCaveats(fd.Message, strings.TrimPrefix(msg, base))})
				continue
			case fd.Fix != nil && sameApplicability(fd.Fix, fix):
				fd.Fix.Edits = append(fd.Fix.Edits, fix.Edits...)
				joined[i] = append(joined[i], evalJoin{line: p.LineOf(call), wrapped: true})
				continue
			}
		}
		if v.Hint {
			msg += " (" + v.Assumption + ")"
		}
		p.Report(call, msg, v.Downgrade(fix))
	}
}

// evaluatesOnce reports an evaluation loop, nested in no other loop, that
// runs once: at module level after training (a final test pass), or in a
// function this file calls only outside loops and no other module
// imports. Blind samples RR and WW judged autocast advice on such a pass
// not worth it: its time is a small share of the run.
func evaluatesOnce(p *Pass, loop *rewrite.Node) bool {
	if len(p.Model.EnclosingLoops(loop)) > 0 {
		return false
	}
	def := loop.Ancestor("function_definition")
	if def == nil {
		// A script's test pass after its training (not a --testOnly
		// branch before it, whose evaluation is the whole run).
		return slices.ContainsFunc(p.File.MethodCalls("backward"), func(b *rewrite.Node) bool { return b.End < loop.Start })
	}
	sites := p.Model.CallSites(def)
	if len(sites) == 0 || p.Model.MayHaveForeignCallSites(def) {
		return false
	}
	for _, site := range sites {
		if len(p.Model.EnclosingLoops(site)) > 0 {
			return false
		}
		if caller := site.Ancestor("function_definition"); caller != nil && !trainedBefore(p, caller, site) {
			return false
		}
	}
	return true
}

// trainedBefore reports a call site in function caller after a loop of
// caller that trains, itself or through a function of the file it calls
// (`for epoch in ...: train(...)`, then `evaluate(model, test_loader)`):
// a test pass once after training, when caller itself runs outside any
// loop (blind samples S25C's compute_validate_meter, S23C's and S23J's
// test passes after training).
func trainedBefore(p *Pass, caller, site *rewrite.Node) bool {
	if p.Model.MayHaveForeignCallSites(caller) {
		return false
	}
	for _, s := range p.Model.CallSites(caller) {
		if len(p.Model.EnclosingLoops(s)) > 0 {
			return false // train_one_epoch's evaluate(): once per epoch
		}
	}
	for _, l := range append(p.File.OfTypeIn(caller, "for_statement"), p.File.OfTypeIn(caller, "while_statement")...) {
		if l.End > site.Start || l.Ancestor("function_definition") != caller {
			continue
		}
		if p.Model.Loop(l).Trains() {
			return true
		}
		trains := false
		walkLoopBody(p.Model, l, func(n *rewrite.Node) {
			if def := p.Model.CalledDef(n); !trains && n.Type == "call" && def != nil && def != caller {
				trains = slices.ContainsFunc(p.File.MethodCalls("backward"), def.Contains)
			}
		})
		if trains {
			return true
		}
	}
	return false
}

// insideTrainingStep reports a call whose enclosing loops (innermost
// first) include a loop that runs `.backward()` in its own body: a frozen
// network run per sample inside a training step (voicefilter's speaker
// embedder) is part of that step, not an evaluation loop. A validation
// loop beside the training loop, in the same epoch loop, is not.
func insideTrainingStep(p *Pass, loops []*rewrite.Node) bool {
	for _, b := range p.File.MethodCalls("backward") {
		if bl := p.Model.EnclosingLoops(b); len(bl) > 0 && slices.Contains(loops, bl[0]) {
			return true
		}
	}
	return false
}

// periodicInTraining reports a call under an `if` that takes a remainder
// inside a training loop: a debug sample every N steps (blind sample
// S35D's StarGAN translates fixed images every sample_step iterations), a
// small share of the run.
func periodicInTraining(p *Pass, call *rewrite.Node) bool {
	guarded := false
	for a := call.Parent; a != nil && !rewrite.IsScopeNode(a); a = a.Parent {
		if a.Type == "if_statement" {
			if c := a.ChildByField("condition"); c != nil && !c.Contains(call) && strings.Contains(c.Text(), "%") {
				guarded = true
			}
		}
		if guarded && rewrite.IsLoop(a) {
			return p.Model.Loop(a).Trains()
		}
	}
	return false
}

// loopBatchOne reports a loop over a DataLoader of this file built with a
// literal batch_size of 1 (`for x, y in tqdm(val_loader)`), on every
// path the loader comes from.
func loopBatchOne(p *Pass, loop *rewrite.Node) bool {
	it := loopIterable(p.Model, loop)
	if it == nil || it.Type != "identifier" {
		return false
	}
	origins := p.Model.Origins(it)
	for _, o := range origins {
		e := o.Expr
		if e == nil || e.Type != "call" || o.Index >= 0 || calleeKind(p.Model.CalleeName(e)).Kind != KindLoader {
			return false
		}
		bs := rewrite.Arg(e, 1, "batch_size")
		if bs == nil || bs.Type != "integer" || bs.Text() != "1" {
			return false
		}
	}
	return len(origins) > 0
}

// autoregressive reports a forward whose input the loop rebinds after it
// (`logits = model(idx)` ... `idx = torch.cat([idx, next_id], 1)`), or
// builds from a list it appends to after it: a generation loop, one token
// or step at a time.
func autoregressive(p *Pass, loop, call *rewrite.Node) bool {
	found := false
	call.ChildByField("arguments").Walk(func(n *rewrite.Node) bool {
		if found || n.Type != "identifier" || n.Field == "attribute" || n.Field == "name" {
			return !found
		}
		for _, b := range p.Model.Bindings(n) {
			if b.Stmt == nil || !loop.Contains(b.Stmt) || b.Kind != rewrite.AssignBinding {
				continue
			}
			if b.Stmt.Start > call.End || b.Value != nil && growsAfter(loop, call, b.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// growsAfter reports an input built in the loop from a list that the loop
// appends to after the forward (`src = torch.tensor(res)` ... `logits =
// model(src)` ... `res.append(next_word)`): token-by-token generation
// (blind sample II's poetry model).
func growsAfter(loop, call, value *rewrite.Node) bool {
	var names []string
	value.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" && n.Field != "attribute" {
			names = append(names, n.Text())
		}
		return true
	})
	grows := false
	loop.Walk(func(n *rewrite.Node) bool {
		if grows || n.Start < call.End || n.Type != "call" {
			return !grows
		}
		fn := n.ChildByField("function")
		if fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "append" && slices.Contains(names, fn.ChildByField("object").Text()) {
			grows = true
		}
		return !grows
	})
	return grows
}

// showsFewBatches reports a loop that looks at a few batches rather than
// evaluating a data set: it breaks unconditionally after its first batch,
// returns from inside (after drawing N images), plots what it computes
// (matplotlib) or writes a sample out on every iteration.
func showsFewBatches(p *Pass, loop *rewrite.Node) bool {
	if body := rewrite.LoopBody(loop); body != nil {
		// `for x, y in loader: model(x); break`: one batch, to build a
		// model's lazily created parameters (blind sample EE's DCRNN).
		for _, st := range rewrite.Statements(body) {
			if st.Type == "break_statement" {
				return true
			}
		}
	}
	few := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		switch {
		case few:
		case n.Type == "return_statement":
			few = true
		case n.Type == "call":
			q := p.Model.CalleeName(n)
			few = strings.HasPrefix(q, "matplotlib.") || strings.HasPrefix(q, "plt.") || dumpsSample(n)
		}
	})
	return few
}

// dumpsSample reports a call that writes one sample out (an image, a
// waveform: `save_image(...)`, `writer.add_audio(...)`): a loop doing so
// on every iteration renders a few samples (MelGAN's eight generated
// clips every few thousand steps: blind sample FF).
func dumpsSample(call *rewrite.Node) bool {
	name := call.ChildByField("function").Text()
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case "save_image", "save_sample", "imsave", "imwrite", "add_audio", "add_image", "add_images", "add_figure", "add_video":
		return true
	}
	return false
}

// lossCall reports a call of a loss by its name (criterion(...),
// F.cross_entropy(...), loss_fn(...)).
func lossCall(call *rewrite.Node) bool {
	name := strings.ToLower(call.ChildByField("function").Text())
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.Contains(name, "loss") || strings.Contains(name, "criterion") || strings.HasSuffix(name, "cross_entropy")
}

// evalForwardSpan returns the statements of an evaluation step to run under
// autocast: from first, a model's forward, through the last of the
// following simple statements (and ifs) that runs a model or a loss, so
// that an encoder and a decoder, or a forward and the loss computed a few
// lines later, share one autocast block and one finding. It stops at a
// loop, with, try or definition.
func evalForwardSpan(p *Pass, first *rewrite.Node) []*rewrite.Node {
	ss := rewrite.Statements(first.Parent)
	i := slices.Index(ss, first)
	if i < 0 {
		return []*rewrite.Node{first}
	}
	last := i
	for j := i + 1; j < len(ss); j++ {
		st := ss[j]
		if st.Type == "comment" {
			continue
		}
		if !st.Is("expression_statement", "if_statement") {
			break
		}
		runs := callsLoss(p, st)
		if !runs {
			st.Walk(func(n *rewrite.Node) bool {
				if n.Type == "call" && p.Model.IsModule(n.ChildByField("function")) {
					runs = true
				}
				return !runs
			})
		}
		if runs {
			last = j
		}
	}
	var out []*rewrite.Node
	for _, st := range ss[i : last+1] {
		if st.Type != "comment" {
			out = append(out, st)
		}
	}
	return out
}

// evaluates reports a model call under torch.no_grad()/inference_mode()
// (a with statement or a decorator) or after `<x>.eval()` in its function.
func evaluates(p *Pass, call *rewrite.Node) bool {
	var fn *rewrite.Node
	for n := call.Parent; n != nil; n = n.Parent {
		switch n.Type {
		case "with_statement":
			found := false
			n.Walk(func(c *rewrite.Node) bool {
				if c.Type == "block" {
					return false
				}
				if c.Type == "call" {
					switch p.Model.CalleeName(c) {
					case "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad":
						found = true
					}
				}
				return !found
			})
			if found {
				return true
			}
		case "decorated_definition":
			for _, d := range n.NamedChildren() {
				if d.Type == "decorator" && strings.Contains(d.Text(), "no_grad") || strings.Contains(d.Text(), "inference_mode") && d.Type == "decorator" {
					return true
				}
			}
		case "function_definition":
			if fn == nil {
				fn = n
			}
		}
	}
	scope := fn
	if scope == nil {
		scope = p.File.Root
	}
	for _, c := range p.File.MethodCalls("eval") {
		if c.End <= call.Start && scope.Contains(c) && len(rewrite.PositionalArgs(c)) == 0 {
			if f := enclosingFunction(c); f == fn {
				return true
			}
		}
	}
	return false
}

func enclosingFunction(n *rewrite.Node) *rewrite.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == "function_definition" {
			return p
		}
	}
	return nil
}

// nextStatement returns the statement after stmt in its block, nil at the end.
func nextStatement(stmt *rewrite.Node) *rewrite.Node {
	ss := rewrite.Statements(stmt.Parent)
	for i, s := range ss {
		if s == stmt {
			for _, t := range ss[i+1:] {
				if t.Type != "comment" {
					return t
				}
			}
		}
	}
	return nil
}

// onCPU reports a forward whose model this code keeps on the CPU
// (`model_0.to("cpu")`, a course notebook's CPU baseline): CUDA autocast
// does nothing there.
func onCPU(p *Pass, forward *rewrite.Node) bool {
	fn := forward.ChildByField("function")
	return fn != nil && fn.Type == "identifier" && p.Model.ModuleDevice(fn, forward) == rewrite.DeviceOther
}

// lossModuleCall reports a call of a name bound to an nn loss module
// (`evaluateL2 = nn.MSELoss()` ... `evaluateL2(out, y)`), however named,
// directly, moved (`evaluateL2 = evaluateL2.cuda()`) or passed in as an
// argument.
func lossModuleCall(p *Pass, call *rewrite.Node) bool {
	fn := call.ChildByField("function")
	return fn != nil && fn.Type == "identifier" && lossModuleValue(p, fn, 0)
}

func lossModuleValue(p *Pass, v *rewrite.Node, depth int) bool {
	qs, known := constructors(p, v, depth)
	return known && len(qs) > 0 && !slices.ContainsFunc(qs, func(q string) bool {
		return !strings.HasPrefix(q, "torch.nn.") || !strings.HasSuffix(q, "Loss")
	})
}

// constructors returns the callee names of the constructions a value may
// come from, through moves chained onto it (`.cuda()`, `.to(device)`) and
// the names and parameters holding it (`criterion = criterion.to(device)`
// adds nothing of its own: the name's other values decide). known is false
// when some origin is not a construction of this file.
func constructors(p *Pass, v *rewrite.Node, depth int) (qs []string, known bool) {
	v = unchainModuleMethods(v)
	switch {
	case v == nil || depth > 3:
		return nil, false
	case v.Type == "call":
		return []string{p.Model.CalleeName(v)}, true
	case v.Type != "identifier":
		return nil, false
	}
	known = true
	for _, o := range p.Model.Origins(v) {
		if o.Expr != nil && o.Expr.Contains(v) {
			continue
		}
		if o.Model != nil || o.Expr == nil {
			known = false
			continue
		}
		more, ok := constructors(p, o.Expr, depth+1)
		qs = append(qs, more...)
		known = known && ok
	}
	return qs, known
}

// tensorMethods are methods of a tensor that reshape, convert or move it:
// a statement calling only one of them does not run a model.
var tensorMethods = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "float": true, "half": true, "double": true, "long": true, "int": true,
	"view": true, "reshape": true, "expand": true, "expand_as": true, "permute": true, "transpose": true,
	"squeeze": true, "unsqueeze": true, "contiguous": true, "detach": true, "clone": true, "size": true,
	"repeat": true, "flatten": true, "sum": true, "mean": true, "max": true, "min": true, "argmax": true,
	"softmax": true, "sigmoid": true, "type": true, "masked_fill": true,
}

// lossInputProducer returns, among stmts (the statements before the
// loss's, in order), the last one that assigns a name the loss call reads
// from a call that is not a tensor method (`out = model(x)`), and that
// call; where the statements just before it produce other inputs of the
// loss the same way (a triplet loss's query, positive and negative
// towers), the first of that run, so that a wrap covers every forward
// (blind sample S30B's two-towers, whose fix wrapped the third tower
// only).
func lossInputProducer(p *Pass, stmts []*rewrite.Node, loss *rewrite.Node) (int, *rewrite.Node) {
	j, call := lastLossInputProducer(p, stmts, loss)
	for call != nil && j > 0 {
		k, earlier := lastLossInputProducer(p, stmts[:j], loss)
		if earlier == nil || k != j-1 {
			break
		}
		j, call = k, earlier
	}
	return j, call
}

// lastLossInputProducer is lossInputProducer without the run: the last
// producer alone.
func lastLossInputProducer(p *Pass, stmts []*rewrite.Node, loss *rewrite.Node) (int, *rewrite.Node) {
	args := loss.ChildByField("arguments")
	if args == nil {
		return 0, nil
	}
	var names []string
	args.Walk(func(n *rewrite.Node) bool {
		if n.Type == "identifier" && !slices.Contains(names, n.Text()) {
			names = append(names, n.Text())
		}
		return true
	})
	for j := len(stmts) - 1; j >= 0; j-- {
		st := stmts[j]
		if st.Type != "expression_statement" || len(st.NamedChildren()) != 1 || st.NamedChildren()[0].Type != "assignment" {
			continue
		}
		a := st.NamedChildren()[0]
		if !slices.ContainsFunc(names, func(n string) bool { return assigns(st, n) }) {
			continue
		}
		v := a.ChildByField("right")
		if v == nil || v.Type != "call" {
			continue
		}
		fn := v.ChildByField("function")
		if fn.Type == "attribute" && tensorMethods[fn.ChildByField("attribute").Text()] {
			continue
		}
		if fn.Type != "identifier" && fn.Type != "attribute" || lossCall(v) {
			continue
		}
		return j, v
	}
	return 0, nil
}

// callsLoss reports a statement that calls a loss: a torch.nn.functional
// loss, an nn loss module, or a callee named like one (criterion, loss_fn).
func callsLoss(p *Pass, stmt *rewrite.Node) bool {
	found := false
	stmt.Walk(func(n *rewrite.Node) bool {
		if n.Type == "call" {
			fn := n.ChildByField("function")
			name := strings.ToLower(fn.Text())
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			if strings.Contains(name, "loss") || strings.Contains(name, "criterion") || strings.HasSuffix(name, "cross_entropy") {
				found = true
			}
		}
		return !found
	})
	return found
}

// forwardStatements returns the first model call before the backward
// statement in its block (after any earlier backward of the same block)
// and the statements from the one holding it up to the last one that
// assigns the backward's receiver (the loss), or up to the backward
// (excluded) when none does. Definitions in between give nil statements.
func forwardStatements(p *Pass, bstmt, backward *rewrite.Node) (*rewrite.Node, []*rewrite.Node) {
	var before []*rewrite.Node
	for _, s := range rewrite.Statements(bstmt.Parent) {
		if s == bstmt {
			break
		}
		if s.Type == "comment" {
			continue
		}
		if callsMethod(s, "backward") {
			before = before[:0] // an earlier step of the same iteration
			continue
		}
		before = append(before, s)
	}
	for i, s := range before {
		var fwd, loss *rewrite.Node
		s.Walk(func(n *rewrite.Node) bool {
			if fwd == nil && n.Type == "call" {
				switch module := p.Model.IsModule(n.ChildByField("function")); {
				case module && (lossCall(n) || lossModuleCall(p, n)):
					loss = cmp.Or(loss, n) // a loss module is not the forward: look inside it
				case (module || runsForward(p, n, 0)) && !outsideGraph(n): // (a helper named batch_loss that runs the model is)
					fwd = n
				case modelMethodLoss(p, n, s, backward):
					fwd = n // `loss = model.compute_loss(x, y)`: the model's own method runs the forward and the loss
				}
			}
			return fwd == nil && !rewrite.IsDefOrLambda(n)
		})
		if fwd == nil && loss != nil {
			// The loss is the only module gpuopt recognises: the forward
			// is the call that produced its input (`out = model(x)` with a
			// model gpuopt cannot see), or there is none to wrap.
			j, call := lossInputProducer(p, before[:i], loss)
			if call == nil {
				return nil, nil
			}
			i, fwd = j, call
		}
		if fwd == nil {
			continue
		}
		stmts := before[i:]
		for _, st := range stmts {
			if st.Is("function_definition", "class_definition", "decorated_definition") {
				return fwd, nil
			}
		}
		if recv := receiver(backward); recv != nil && recv.Type == "identifier" {
			for j := len(stmts) - 1; j >= 0; j-- {
				if assigns(stmts[j], recv.Text()) {
					stmts = stmts[:j+1]
					break
				}
			}
		}
		return fwd, stmts
	}
	return nil, nil
}

// moduleOwnMethod reports a method nn.Module defines, which runs no
// forward: a query or setting (modelMethods) or a conversion that returns
// the module (moduleSelfMethods).
func moduleOwnMethod(name string) bool { return modelMethods[name] || moduleSelfMethods[name] }

// modelMethodLoss reports a call of a model's own method (not one of
// nn.Module's: moduleUtilityMethods) in statement s whose value is the
// loss the step calls backward on: `loss = model.compute_loss(x, E)`,
// then `loss.backward()`. The method runs the forward and the loss
// (blind sample S40B's calorimeter diffusion models, whose training
// steps went unreported through `compute_loss` and `get_loss`).
func modelMethodLoss(p *Pass, call, s, backward *rewrite.Node) bool {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" || moduleOwnMethod(fn.ChildByField("attribute").Text()) || !p.Model.IsModule(fn.ChildByField("object")) {
		return false
	}
	recv := receiver(backward)
	if recv == nil || recv.Type != "identifier" || s.Type != "expression_statement" {
		return false
	}
	a := s.NamedChildren()[0]
	return a.Type == "assignment" && a.ChildByField("right") == call && a.ChildByField("left").Text() == recv.Text()
}

// outsideGraph reports a forward whose result cannot reach the backward:
// on a `volatile=True` Variable, or brought to the host at once
// (`Q(obs).cpu()`). A DQN's action selection before its learning step is
// one (blind sample GG). (A target network's forward under no_grad feeds
// the loss, and belongs in the wrap.)
func outsideGraph(call *rewrite.Node) bool {
	if a := call.Parent; a != nil && a.Type == "attribute" && a.ChildByField("object") == call {
		switch a.ChildByField("attribute").Text() {
		case "cpu", "numpy", "item", "tolist":
			return true
		}
	}
	volatile := false
	call.ChildByField("arguments").Walk(func(n *rewrite.Node) bool {
		if n.Type == "keyword_argument" && n.ChildByField("name").Text() == "volatile" && n.ChildByField("value").Type == "true" {
			volatile = true
		}
		return !volatile
	})
	return volatile
}

// stepStatement returns the statement of the step whose preceding
// statements hold the forward pass: the backward's own statement when it
// sits in the step's body, or, for a train/val phase loop (`with
// torch.set_grad_enabled(phase == "train"):` holding the forward, then
// `if phase == "train": loss.backward()`), the if or with statement around
// it that follows the forward, up to two levels up; or the backward's
// statement in a branch that holds the forward before it. Nil when there
// is none.
func stepStatement(p *Pass, bstmt, backward, step *rewrite.Node) *rewrite.Node {
	for i := 0; bstmt != nil && bstmt.Parent != nil; i++ {
		if bstmt.Parent.Parent == step {
			return bstmt
		}
		// (At the first level too: a step whose forward, loss and
		// backward all sit in one branch of a config switch, `if
		// cfg.MODEL.BRANCHED:`, blind sample S26C's CIL agent.)
		if fwd, _ := forwardStatements(p, bstmt, backward); fwd != nil {
			return bstmt
		}
		up := bstmt.Parent.Parent
		if i >= 2 || up == nil || !up.Is("if_statement", "with_statement") {
			return nil
		}
		bstmt = up
	}
	return nil
}

// callsMethod reports a call `<x>.name(...)` inside stmt.
func callsMethod(stmt *rewrite.Node, name string) bool {
	found := false
	stmt.Walk(func(n *rewrite.Node) bool {
		if n.Type == "call" {
			if fn := n.ChildByField("function"); fn.Type == "attribute" && fn.ChildByField("attribute").Text() == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// callsNumpy reports a `.numpy()` call in a loop's body: autocast's
// half-precision outputs would reach it (NumPy has no bf16).
func callsNumpy(p *Pass, loop *rewrite.Node) bool {
	// (Also a NumPy array's item written from a tensor, numpyReceivesTensor.)
	body := loop.ChildByField("body")
	if body == nil {
		return false
	}
	halfReaches := false
	body.Walk(func(n *rewrite.Node) bool {
		// (A lambda of the loop body runs in it: `list(map(lambda d, l:
		// l.append(d.cpu().numpy()), [pred_y, batch_y], lists))`, blind
		// sample S27D's SimVP, where the wrap broke the test pass.)
		if halfReaches || n.Is("function_definition", "class_definition") {
			return false
		}
		if fn := n.ChildByField("function"); n.Type == "call" && fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "numpy" {
			halfReaches = !integerOrInput(p, loop, fn.ChildByField("object"))
		}
		return !halfReaches
	})
	if halfReaches || numpyReceivesTensor(p, body) {
		return true
	}
	// Or hands tensors to a function, of this file or a project module,
	// that does (`utils.jaccard_from_logits(data, start_logits, ...)`
	// calling .cpu().numpy(): blind sample EE, where the applied wrap made
	// the run die after an epoch).
	found := false
	body.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) {
			return false
		}
		if n.Type != "call" {
			return true
		}
		if _, def := calledFunction(p.Model, n); def != nil {
			found = callsMethod(def, "numpy")
		}
		return !found
	})
	return found
}

// integerOrInput reports a tensor expression that autocast leaves out of
// half precision: a chain through an integer or fp32 conversion
// (`preds.argmax(1).cpu()`, halfFree), or a name the loop binds to the
// loader's batch or to the indices of torch.max/min/topk/sort
// (`_, pred = torch.max(out, 1)`), reassigned in the loop only from
// itself (`labels = labels.long().to(dev)`). Its .numpy() needs no
// .float() under the wrap (blind sample S14B: argmax indices and long
// labels).
func integerOrInput(p *Pass, loop, expr *rewrite.Node) bool {
	for expr != nil {
		switch expr.Type {
		case "call":
			fn := expr.ChildByField("function")
			if fn == nil || fn.Type != "attribute" {
				return false
			}
			if halfFree[fn.ChildByField("attribute").Text()] {
				return true
			}
			expr = fn.ChildByField("object")
		case "attribute":
			if a := expr.ChildByField("attribute").Text(); a != "data" {
				return false
			}
			expr = expr.ChildByField("object")
		case "identifier":
			return integerOrBatchName(loop, expr.Text(), expr.Start)
		default:
			return false
		}
	}
	return false
}

// integerOrBatchName: integerOrInput for a name of the loop, read at
// offset at: the last assignment to it in the loop's body before that
// read decides (none: the name must be the loop's batch).
func integerOrBatchName(loop *rewrite.Node, name string, at int) bool {
	batch := loopTargetNames(loop)[name]
	var last *rewrite.Node
	loop.ChildByField("body").Walk(func(n *rewrite.Node) bool {
		if rewrite.IsDefOrLambda(n) || n.Start >= at {
			return false
		}
		if left := n.ChildByField("left"); n.Type == "assignment" && left != nil && n.End <= at && bindsName(left, name) {
			last = n // (a read in an assignment's own value sees the binding before it)
		}
		return true
	})
	if last == nil {
		return batch
	}
	left, right := last.ChildByField("left"), last.ChildByField("right")
	if right == nil {
		return false
	}
	if left.Type == "identifier" {
		// `labels = labels.long().to(dev)`: the batch, converted; or
		// `y_ = y_.argmax(dim=1)`: integers from here on (blind sample
		// S40H's video classifiers, told to add .float() before
		// accuracy_score's .numpy() of argmax indices).
		root := rewrite.RootName(right)
		return batch && root != nil && root.Text() == name || integerOrInput(nil, loop, right)
	}
	// `x, y = x.cuda(), y.cuda()`: the matching item, read as above.
	if left.Is("pattern_list", "tuple_pattern") && right.Is("expression_list", "tuple") && len(left.NamedChildren()) == len(right.NamedChildren()) {
		for i, target := range left.NamedChildren() {
			if target.Type != "identifier" || target.Text() != name {
				continue
			}
			item := right.NamedChildren()[i]
			root := rewrite.RootName(item)
			return batch && root != nil && root.Text() == name || integerOrInput(nil, loop, item)
		}
		return false
	}
	// `_, pred = torch.max(out, 1)`: the indices.
	if !left.Is("pattern_list", "tuple_pattern") || len(left.NamedChildren()) != 2 || left.NamedChildren()[1].Text() != name || right.Type != "call" {
		return false
	}
	q := right.ChildByField("function").Text()
	return strings.HasSuffix(q, ".max") || strings.HasSuffix(q, ".min") || strings.HasSuffix(q, ".topk") || strings.HasSuffix(q, ".sort")
}

// bindsName reports an assignment target that binds name.
func bindsName(target *rewrite.Node, name string) bool {
	found := false
	target.Walk(func(n *rewrite.Node) bool {
		found = found || n.Type == "identifier" && n.Text() == name
		return !found
	})
	return found
}

// outputsEscapeNote is what AMP004 says where outputsEscape withholds the wrap.
const outputsEscapeNote = "; the outputs leave the loop (kept in a list, read after it, or logged by wandb, mlflow or TensorBoard) and would be bf16/fp16 there, which NumPy, plotting, scikit-learn and those loggers refuse: add .float() where they are kept or logged, then wrap"

// halfFree are the methods whose result carries no bf16/fp16 tensor out
// of the autocast block: Python numbers, integer indices, fp32 copies.
var halfFree = map[string]bool{"item": true, "tolist": true, "float": true, "double": true, "argmax": true, "argmin": true,
	"long": true, "int": true, "bool": true}

// customKernelsNote is why AMP004 offers no wrap in a project that
// compiles CUDA kernels of its own.
const customKernelsNote = customKernelsWhy + ": check that they do, then wrap"

// spikingjellyCupy reports a project that runs spikingjelly's neurons on
// their CuPy backend (`backend='cupy'`, or `functional.set_backend(model,
// 'cupy')`, also behind a flag).
func spikingjellyCupy(p *Pass) bool {
	return p.Memo("torch.spikingjellyCupy", func() any {
		return p.Model.ProjectSpells("spikingjelly") && p.Model.ProjectSpells("'cupy'", `"cupy"`)
	}).(bool)
}

// customKernelsWhy is the risk both AMP003 and AMP004 name.
const customKernelsWhy = "; but this project runs CUDA kernels outside torch's own (torch.utils.cpp_extension, CuPy kernels such as spikingjelly's backend='cupy' neurons, or torch_cluster's knn_graph and radius_graph), which often accept only fp32/fp16 and fail on bf16 inputs"

// cupyKernelSpellings are the ways a project launches CuPy kernels on its
// activations: spikingjelly's neurons with backend='cupy' (a literal, or
// `functional.set_backend(model, 'cupy')`) and hand-written RawKernels.
// spikingjelly's cupy neurons take float32 and float16 only and raise
// NotImplementedError on bf16 (blind sample S22C: the bf16 switch broke
// an SNN trained with `-amp -cupy`).
var cupyKernelSpellings = []string{"'cupy'", `"cupy"`, "RawKernel(", "ElementwiseKernel(", "ReductionKernel(", "RawModule("}

// numpyReceivesTensor reports an item of a NumPy array assigned or
// augmented with a value that is not a Python number (`losses[i] +=
// loss`, losses = np.zeros(n), loss a tensor): NumPy converts the tensor
// with __array__, which has no bf16 (TypeError: blind sample S39R's
// MultiTox evaluation loop, a broken fix).
func numpyReceivesTensor(p *Pass, body *rewrite.Node) bool {
	found := false
	body.Walk(func(n *rewrite.Node) bool {
		if found || rewrite.IsDefOrLambda(n) {
			return false
		}
		if !n.Is("assignment", "augmented_assignment") {
			return true
		}
		left, right := n.ChildByField("left"), n.ChildByField("right")
		if left == nil || right == nil || left.Type != "subscript" {
			return true
		}
		arr := left.ChildByField("value")
		if arr == nil || arr.Type != "identifier" || !numpyBuilt(p, arr) {
			return true
		}
		if pythonOrNumpyValue(p, right) {
			return true
		}
		found = true
		return false
	})
	return found
}

// pythonOrNumpyValue reports an expression that is a Python number or NumPy
// value whatever dtype tensors have: a literal, float(...)/int(...),
// `.item()`, `.numpy()`, `.tolist()`, a NumPy call, or a list or tuple of
// those (`np.array([loss.item(), aux.item()])`).
func pythonOrNumpyValue(p *Pass, v *rewrite.Node) bool {
	switch v.Type {
	case "integer", "float", "true", "false", "string", "none":
		return true
	case "unary_operator", "parenthesized_expression":
		args := v.NamedChildren()
		return len(args) > 0 && pythonOrNumpyValue(p, args[len(args)-1])
	case "binary_operator":
		return pythonOrNumpyValue(p, v.ChildByField("left")) && pythonOrNumpyValue(p, v.ChildByField("right"))
	case "identifier":
		// A name bound only to Python numbers (literals, a range or
		// enumerate counter: `flags[epoch] = -1`).
		bs := p.Model.Bindings(v)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			switch {
			case b.Kind == rewrite.LoopBinding && b.Stmt != nil && b.Stmt.Type == "for_statement" && countingBinding(p, b):
			case b.Kind == rewrite.AssignBinding && b.Value != nil && b.Value.Is("integer", "float"):
			default:
				return false
			}
		}
		return true
	case "list", "tuple":
		for _, c := range v.NamedChildren() {
			if !pythonOrNumpyValue(p, c) {
				return false
			}
		}
		return true
	case "call":
		fn := v.ChildByField("function")
		switch {
		case fn != nil && fn.Type == "identifier" && (fn.Text() == "float" || fn.Text() == "int" || fn.Text() == "len"):
			return true
		case callAttr(v) == "item" || callAttr(v) == "numpy" || callAttr(v) == "tolist":
			return true
		case strings.HasPrefix(p.Model.CalleeName(v), "numpy."):
			return true
		}
	}
	return false
}

// countingBinding reports a for loop binding that counts: the loop runs over
// range(...), or the binding is enumerate's index.
func countingBinding(p *Pass, b *rewrite.Binding) bool {
	it := b.Stmt.ChildByField("right")
	if it == nil || it.Type != "call" {
		return false
	}
	switch p.Model.CalleeName(it) {
	case "range":
		return true
	case "enumerate":
		left := b.Stmt.ChildByField("left")
		return left != nil && left.Is("pattern_list", "tuple_pattern") && len(left.NamedChildren()) > 0 && left.NamedChildren()[0] == b.Ident
	}
	return false
}

// numpyBuilt reports a name whose every assignment builds a NumPy array
// (`np.zeros(n)`, `np.array(...)`, `np.empty(...)`).
func numpyBuilt(p *Pass, id *rewrite.Node) bool {
	bs := p.Model.Bindings(id)
	if len(bs) == 0 {
		return false
	}
	built := false
	for _, b := range bs {
		if b.Kind == rewrite.AugAssignBinding {
			continue // `losses /= counts` keeps the array an array
		}
		if b.Kind != rewrite.AssignBinding || b.Value == nil || b.Value.Type != "call" {
			return false
		}
		built = true
		switch p.Model.CalleeName(b.Value) {
		case "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "numpy.array", "numpy.zeros_like", "numpy.ones_like":
		default:
			return false
		}
	}
	return built
}

// ownKernelsGate withholds the wrap, and says why, where the model runs
// code autocast cannot vouch for: the project's own CUDA kernels, sparse
// matmuls, or its own autograd Functions. The reason is given even where
// another gate withheld the wrap already: whoever wraps by hand needs it
// (blind sample EE: an evaluation loop's message, withheld for its
// .numpy(), left out the sparse matmul that would fail).
func ownKernelsGate(p *Pass, fix *rewrite.Fix, msg *string, dataParallelBlocked bool) *rewrite.Fix {
	switch {
	case customKernels(p):
		*msg += customKernelsNote
	case sparseMatmul(p):
		*msg += sparseMatmulNote
	case autogradFunctions(p):
		note := autogradFunctionNote
		if !p.Env.Versions.Torch.AtLeast(2, 4) {
			// torch.amp.custom_fwd(device_type=) arrived in 2.4; the
			// CUDA spelling before it (blind sample S38F's WS-Net_Plus,
			// pinned to 1.11).
			note = strings.Replace(note, `torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)`, `torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)`, 1)
		}
		*msg += note
	case dataParallelBlocked:
		*msg += dataParallelNote
	case forwardPreHooks(p):
		*msg += forwardPreHookNote
	default:
		return fix
	}
	return nil
}

// uncastWrite returns a write that autocast does not cast
// (rewrite.UncastWrite) in scope or in a forward method of the file, and
// reports whether a project module the file imports has one in a forward:
//   - a tensor written into another by index (`F_buffer[ind, :] =
//     cur_f.data`, an ArcFace head's `cos_th_m[cond] = (cos_th -
//     self.mm)[cond]`), where index_put refuses a bf16 value in an fp32
//     target ("Index put requires the source and destination dtypes
//     match": blind sample S22L, three broken wraps);
//   - an in-place matrix product (a center loss's `distmat.addmm_(x,
//     self.centers.t())`), whose bf16 activation meets an fp32 parameter
//     ("mat1 and mat2 must have the same dtype": blind sample S23A's DAN,
//     two broken wraps).
//
// A Python number written by index (`x[mask] = 0`) and a store by slice
// (`preds[a:b] = out`, a copy that converts) stay safe.
func uncastWrite(p *Pass, scope *rewrite.Node) (at *rewrite.Node, elsewhere bool) {
	if at = rewrite.UncastWriteExcept(scope, p.Model.HostContainer); at != nil {
		return at, false
	}
	if at = p.Model.UncastWriteInForward(); at != nil {
		return at, false
	}
	return nil, p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.UncastWriteForward }, 3)
}

// uncastWriteNote is what AMP004 says where uncastWrite withholds the
// wrap: the line and what it does, or a module the file imports.
func uncastWriteNote(p *Pass, at *rewrite.Node) string {
	switch {
	case at == nil:
		return "; but a forward of a module this file imports writes into a tensor where autocast casts nothing (a store by tensor index, or an in-place matmul such as addmm_), which raises once one side is bf16 and the other fp32: make their dtypes agree there, then wrap"
	case at.Type == "call":
		return "; but line " + p.LineOf(at) + " runs an in-place matrix product (" + at.ChildByField("function").ChildByField("attribute").Text() +
			"), whose operands autocast does not cast: under bf16 autocast a bf16 activation meets an fp32 parameter there (RuntimeError: mat1 and mat2 must have the same dtype): use the out-of-place form or .float() its operands, then wrap"
	}
	return "; but line " + p.LineOf(at) + " writes a tensor into another by index, which raises under autocast once one is bf16 and the other fp32 (Index put requires the source and destination dtypes match): make their dtypes agree (.float() on the value), then wrap"
}

// linalgNote is what AMP004 says where a forward of the file, or of a
// project module it imports, takes an SVD, inverse, determinant or solve
// of an activation (rewrite.Model.LinalgInForward): under autocast that
// activation is bf16 (or fp16), which those ops refuse, so the wrap would
// raise at the first forward (blind sample S26L's DCP and RPMNet).
func linalgNote(p *Pass) (string, bool) {
	var where, name string
	if call := p.Model.LinalgInForward(); call != nil {
		where, name = "line "+p.LineOf(call), call.ChildByField("function").Text()
	} else {
		if d := p.Model.ProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.LinalgForward != "" }, 3); d != nil {
			where, name = filepath.Base(d.Path), d.LinalgForward
		}
	}
	if name == "" {
		return "", false
	}
	return "; but the forward takes " + name + " (" + where + ") of a tensor that autocast would make bf16, and " + name + " has no bf16 or fp16 CUDA kernel (NotImplementedError on torch 2.11, .notes/amp004-linalg-h200.txt): " +
		`run it on .float() inputs inside torch.autocast("cuda", enabled=False), then wrap`, true
}

// apexOptionalNote is what AMP004 adds where NVIDIA apex's mixed
// precision runs only behind a flag that is off by default.
const apexOptionalNote = "; this file's apex mixed precision (amp.initialize) runs only behind a flag that is off by default, so the default run trains in fp32: use native autocast instead of apex (not both), by hand"

// dataParallelNote is why AMP003 and AMP004 offer no bf16 rewrite for a
// model wrapped in nn.DataParallel.
const dataParallelNote = "; but the model is wrapped in nn.DataParallel, whose replica threads re-enter autocast without its dtype (torch's parallel_apply passes enabled= only), so on more than one GPU they run fp16, without loss scaling: move to DistributedDataParallel, or autocast inside the model's forward, first"

// dataParallelThreads reports a file that wraps a model in nn.DataParallel
// (not DistributedDataParallel): its forward runs in one thread per GPU,
// where autocast's dtype, thread-local, falls back to fp16 (blind sample
// S22G: AMP003's bf16 switch, scaler off, on a tunesformer trained with
// DataParallel across the visible GPUs).
func dataParallelThreads(p *Pass) bool {
	return p.Memo("torch.dataParallelThreads", func() any {
		return len(p.Model.CallsTo(dataParallelNames...)) > 0
	}).(bool)
}

// dataParallelGuardNote is what AMP004 says where its wrap carries
// dataParallelGuard's `enabled=` argument.
const dataParallelGuardNote = "; the wrap stays off where the model is an nn.DataParallel over several GPUs, whose replica threads would autocast in fp16 without loss scaling (torch's parallel_apply passes enabled= only, not the dtype): move to DistributedDataParallel to train those in bf16 too"

// dataParallelGuard returns the `enabled=` expression that keeps a bf16
// wrap of the forward call off where its model is an nn.DataParallel
// over more than one GPU (dataParallelThreads: its replica threads would
// run fp16 without loss scaling), or "" where the wrap needs none (no
// nn.DataParallel in the file, or networks in the wrapped statements
// built from calls none of which is one); blocked where it needs a guard
// it cannot build (dataParallelNote: no bf16 wrap). On one
// GPU DataParallel runs the module in the calling thread, under the
// wrap's bf16 (pytorch/examples' imagenet wraps only when no --gpu is
// given). The guard asks every module of the called model, so it also
// sees a wrapped part (imagenet's `model.features =
// nn.DataParallel(model.features)` for AlexNet and VGG); it is built only
// where every nn.DataParallel of the file is assigned to the name the
// step calls or to an attribute of it (`model =
// nn.DataParallel(model).cuda()` and `output = model(images)`). With a
// wrap elsewhere (`netD = nn.DataParallel(netD)` beside `netG(z)`) the
// guard could not see it, and ok is false: no fix, as before.
func dataParallelGuard(p *Pass, forward *rewrite.Node, stmts []*rewrite.Node) (enabled string, blocked bool) {
	if !dataParallelThreads(p) {
		return "", false
	}
	clean := true
	for _, st := range stmts {
		st.Walk(func(n *rewrite.Node) bool {
			if n.Type == "call" && p.Model.IsModule(n.ChildByField("function")) && !builtWithoutDataParallel(p, n.ChildByField("function")) {
				clean = false
			}
			return clean
		})
	}
	if clean {
		return "", false
	}
	callee := forward.ChildByField("function")
	if callee == nil || !plainReference(callee) {
		return "", true
	}
	dp, ok := p.Model.LocalName(forward, "torch.nn.DataParallel")
	if !ok {
		return "", true
	}
	for _, wrap := range p.Model.CallsTo(dataParallelNames...) {
		target := wrappedTarget(wrap)
		if target == nil || lastIdentifier(target) != lastIdentifier(callee) && !strings.HasPrefix(target.Text(), callee.Text()+".") {
			return "", true
		}
	}
	return "not any(isinstance(m, " + dp + ") and len(m.device_ids) > 1 for m in " + callee.Text() + ".modules())", false
}

// builtWithoutDataParallel reports a model name whose every value is
// built in this file from calls, none of them an nn.DataParallel (narrow
// networks in one function of a file that wraps another in a second).
func builtWithoutDataParallel(p *Pass, callee *rewrite.Node) bool {
	if callee.Type != "identifier" {
		return false
	}
	origins := p.Model.Origins(callee)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if o.Expr == nil || o.Param != nil || o.Model != nil || o.Expr.Type != "call" {
			return false
		}
		wraps := false
		o.Expr.Walk(func(n *rewrite.Node) bool {
			if n.Type == "call" && slices.Contains(dataParallelNames, p.Model.CalleeName(n)) {
				wraps = true
			}
			return !wraps
		})
		if wraps {
			return false
		}
	}
	return true
}

// plainReference reports a name or a chain of attributes of one
// (`model`, `self.net`): an expression a guard may read again.
func plainReference(n *rewrite.Node) bool {
	switch n.Type {
	case "identifier":
		return true
	case "attribute":
		return plainReference(n.ChildByField("object"))
	}
	return false
}

// lastIdentifier is the name a plain reference ends in (`net` of
// `self.net`).
func lastIdentifier(n *rewrite.Node) string {
	if n.Type == "attribute" {
		return n.ChildByField("attribute").Text()
	}
	return n.Text()
}

// wrappedTarget returns the plain reference a wrapping call is assigned
// to (assignedThroughMoves), or nil.
func wrappedTarget(call *rewrite.Node) *rewrite.Node {
	if left := assignedThroughMoves(call); left != nil && plainReference(left) {
		return left
	}
	return nil
}

// forwardPreHookNote is why AMP004 offers no wrap in a project that
// registers its own forward pre-hooks.
const forwardPreHookNote = "; but this project registers its own forward pre-hook (register_forward_pre_hook), which runs inside the wrap: a hand-written spectral norm that stores its power-iteration vector on the module (setattr) would store it in bf16, and the next forward outside autocast fails on an fp32 weight against a bf16 vector: keep what the hook stores in fp32, then wrap"

// forwardPreHooks reports a project that registers forward pre-hooks of
// its own (blind sample S25H's IGEBM, whose SpectralNorm hook stores
// `weight_u` with setattr: the wrap made it bf16 and the SGLD sampler's
// next forward, outside autocast, raised on the dtype mismatch).
// torch.nn.utils.spectral_norm writes its vector in place (`out=u`),
// keeping it fp32, and is not spelled this way.
func forwardPreHooks(p *Pass) bool {
	return p.Memo("torch.forwardPreHooks", func() any {
		return p.Model.ProjectSpells("register_forward_pre_hook")
	}).(bool)
}

// autogradFunctionNote is why AMP004 offers no wrap in a project that
// writes its own autograd Functions.
const autogradFunctionNote = "; but this project defines its own torch.autograd.Function, whose forward would run on bf16 inputs under autocast without autocast's fp32 safeguards (a VQ-VAE's nearest-code search ties in bf16): check its numerics, or decorate it with torch.amp.custom_fwd(device_type=\"cuda\", cast_inputs=torch.float32), then wrap"

// autogradFunctions reports a file, or a project module it imports a few
// modules deep, that defines a torch.autograd.Function.
func autogradFunctions(p *Pass) bool {
	return p.Memo("torch.autogradFunctions", func() any {
		return p.Model.DefinesAutogradFunction() || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.AutogradFunction }, 4)
	}).(bool)
}

// sparseMatmulNote is why AMP004 offers no wrap where a sparse matrix
// multiplies activations.
const sparseMatmulNote = "; but this model multiplies by a sparse matrix (torch.spmm), whose CUDA kernel has no bf16 (NotImplementedError under autocast): convert that product's operands to fp32 first, then wrap"

// sparseMatmul reports a file, or a project module it imports a few
// modules deep, that multiplies by a sparse matrix (a GCN's torch.spmm
// of the adjacency): under autocast its dense operand is bf16, and the
// sparse kernels refuse it (DGI, GCNII).
func sparseMatmul(p *Pass) bool {
	return p.Memo("torch.sparseMatmul", func() any {
		return rewrite.SparseMatmul(p.Model) || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.SparseMatmul }, 4)
	}).(bool)
}

// customKernels reports a file that compiles CUDA kernels of its own, or
// imports (a few project modules deep) one that does: StyleGAN2's fused
// activation and upfirdn2d ops take fp32 and fp16 only, so wrapping its
// forward in bf16 autocast fails at the first step.
func customKernels(p *Pass) bool {
	return p.Memo("torch.customKernels", func() any {
		return p.Model.Imports("torch.utils.cpp_extension") ||
			p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.CustomKernels }, 3) ||
			p.Model.ProjectSpells(cupyKernelSpellings...) ||
			// torch_cluster's kernels (torch_geometric's knn_graph and
			// radius_graph call them) dispatch on float, double and half
			// only: a bf16 activation raises "not implemented for
			// 'BFloat16'" (blind sample S38R's DGCNN, a broken fix).
			p.Model.ProjectSpells("torch_cluster", "knn_graph(", "radius_graph(")
	}).(bool)
}

// convertingLogger reports a logging call that turns the tensors it is
// given into NumPy arrays, which have no bf16: wandb.log, mlflow's log
// calls, and TensorBoard's histogram, image and embedding writers.
func convertingLogger(p *Pass, call *rewrite.Node) bool {
	q := p.Model.CalleeName(call)
	if strings.HasPrefix(q, "wandb.") || strings.HasPrefix(q, "mlflow.") {
		return true
	}
	switch callAttr(call) {
	case "add_histogram", "add_image", "add_images", "add_embedding":
		return true
	}
	return false
}

// outputsFeedUnwrappedForward returns a module call of the step, after
// the statements the fix wraps and outside them, that reads a name those
// statements bind (`d_fake = discriminator(fake_hr.detach())` after the
// generator's wrapped forward): under the wrap that name holds a bf16
// tensor, which a network running outside autocast refuses ("Input type
// (BFloat16) and weight type (float) should be the same", blind sample
// S18N's ESRGAN), or a binary cross-entropy, which wants its input and
// target in one dtype. nil when there is none.
func outputsFeedUnwrappedForward(p *Pass, step *rewrite.Node, stmts []*rewrite.Node) *rewrite.Node {
	if len(stmts) == 0 {
		return nil
	}
	end := stmts[len(stmts)-1].End
	names := assignedNames(p, stmts, false)
	if len(names) == 0 {
		return nil
	}
	var found *rewrite.Node
	step.Walk(func(n *rewrite.Node) bool {
		if found != nil || rewrite.IsDefOrLambda(n) {
			return false
		}
		if n.Type != "call" || n.Start < end {
			return true
		}
		fn := n.ChildByField("function")
		args := n.ChildByField("arguments")
		if fn == nil || args == nil {
			return true
		}
		// A binary cross-entropy (nn.BCELoss, F.binary_cross_entropy)
		// wants its input and target in one dtype: a bf16 sigmoid output
		// of the wrapped forward against an fp32 target raises (blind
		// sample S28C's age estimation, whose gender head ends in
		// F.sigmoid in another module).
		if (!p.Model.IsModule(fn) || lossModuleCall(p, n)) && len(bceCallsIn(p, n, 1)) == 0 {
			return true
		}
		args.Walk(func(id *rewrite.Node) bool {
			if found == nil && id.Type == "identifier" && names[id.Text()] && (id.Parent == nil || id.Parent.Type != "attribute" || id.Parent.ChildByField("object") == id) {
				found = n
			}
			return found == nil
		})
		return found == nil
	})
	return found
}

// assignedNames returns the names the assignments of stmts bind, those of
// assignments from a loss call left out when skipLosses is set.
func assignedNames(p *Pass, stmts []*rewrite.Node, skipLosses bool) map[string]bool {
	names := map[string]bool{}
	for _, st := range stmts {
		st.Walk(func(n *rewrite.Node) bool {
			if n.Type != "assignment" {
				return true
			}
			if r := n.ChildByField("right"); skipLosses && r != nil && r.Type == "call" && (lossCall(r) || lossModuleCall(p, r)) {
				return true
			}
			if l := n.ChildByField("left"); l != nil {
				l.Walk(func(id *rewrite.Node) bool {
					if id.Type == "identifier" {
						names[id.Text()] = true
					}
					return true
				})
			}
			return true
		})
	}
	return names
}

// outputsEscape reports an evaluation step whose wrapped statements assign
// a name that outlives the loop in half precision: read after the loop, or
// kept in a container that lives across steps (`preds.append(out)`,
// `outputs.extend(out.cpu())`), or handed to a logger that converts it to
// NumPy (`wandb.log({"out": out})`), unless converted first (`.float()`,
// `.item()`, `.argmax()`...).
func outputsEscape(p *Pass, loop *rewrite.Node, stmts []*rewrite.Node) bool {
	names := assignedNames(p, stmts, true) // autocast computes losses in fp32
	if len(names) == 0 {
		return false
	}
	scope := p.Model.ScopeOf(loop)
	for name := range names {
		for _, r := range p.Model.Reads(scope, name, p.File.Root) {
			if r.Start < loop.End || r.Parent != nil && r.Parent.Type == "delete_statement" ||
				r.Parent != nil && r.Parent.Type == "expression_list" && r.Parent.Parent != nil && r.Parent.Parent.Type == "delete_statement" {
				continue // `del outputs, loss` after the loop frees them: not a use
			}
			// y_pred plotted after training: the loop's value reaches the
			// read (not a later loop's own `outputs = model(x)`).
			if b := p.Model.ReachingBinding(r, r); b != nil {
				if b.Stmt != nil && loop.Contains(b.Stmt) {
					return true
				}
				continue
			}
			// Not clear which binding reaches it (`gen_cost = None` before
			// the loop, assigned in it, then `gen_cost.cpu().numpy()`
			// after: blind sample S16E's WGAN-GP): one in the loop may, and
			// a read that takes it to the host or a logger would refuse it.
			if !readToHost(p, r) {
				continue
			}
			for _, b := range p.Model.Bindings(r) {
				if b.Stmt != nil && loop.Contains(b.Stmt) {
					return true
				}
			}
		}
	}
	// Names the loop derives from them (`soft = F.softmax(outputs, 1)`,
	// `grid = make_grid(soft[0, 1:2])`, then `writer.add_image(grid)`:
	// blind sample S17E's UA-MT, whose wrap would have crashed its
	// TensorBoard image at step 50), unless converted on the way.
	mentions := func(e *rewrite.Node, in map[string]bool) bool {
		found := false
		e.Walk(func(id *rewrite.Node) bool {
			if found || id.Type == "call" && halfFree[callAttr(id)] {
				return false
			}
			found = id.Type == "identifier" && in[id.Text()] && !integerOrBatchName(loop, id.Text(), id.Start)
			return !found
		})
		return found
	}
	for range 2 {
		walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
			if n.Type != "assignment" {
				return
			}
			r, l := n.ChildByField("right"), n.ChildByField("left")
			if r == nil || l == nil || halfFree[callAttr(r)] || r.Type == "call" && (lossCall(r) || lossModuleCall(p, r)) || !mentions(r, names) {
				return // (a loss is computed in fp32)
			}
			l.Walk(func(id *rewrite.Node) bool {
				if id.Type == "identifier" {
					names[id.Text()] = true
				}
				return true
			})
		})
	}
	escapes := false
	walkLoopBody(p.Model, loop, func(n *rewrite.Node) {
		if escapes || n.Type != "call" {
			return
		}
		if a := callAttr(n); a != "append" && a != "extend" && !convertingLogger(p, n) {
			return
		}
		for _, arg := range rewrite.PositionalArgs(n) {
			if halfFree[callAttr(arg)] {
				continue
			}
			arg.Walk(func(id *rewrite.Node) bool {
				if id.Type == "call" && halfFree[callAttr(id)] {
					return false // out.argmax(1) inside a larger expression
				}
				if id.Type == "identifier" && names[id.Text()] && !integerOrBatchName(loop, id.Text(), id.Start) {
					escapes = true // (`y_ = y_.argmax(1)` before: integers escape)
				}
				return !escapes
			})
		}
	})
	return escapes
}

// readToHost reports a read of a tensor that its statement takes to NumPy
// or the host (`.numpy()`, `.tolist()`, `.cpu()`), keeps (`.append`,
// `.extend`) or logs through a logger that converts it (convertingLogger).
func readToHost(p *Pass, r *rewrite.Node) bool {
	stmt := rewrite.Statement(r)
	for n := r.Parent; n != nil && n != stmt; n = n.Parent {
		if n.Type != "call" {
			continue
		}
		switch callAttr(n) {
		case "numpy", "tolist", "cpu", "append", "extend":
			return true
		}
		if convertingLogger(p, n) {
			return true
		}
	}
	return false
}

// receiver is x of a call x.m(...).
func receiver(call *rewrite.Node) *rewrite.Node {
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "attribute" {
		return nil
	}
	return fn.ChildByField("object")
}

// assigns reports a statement `name = ...` / `name, x = ...` / `name += ...`.
func assigns(stmt *rewrite.Node, name string) bool {
	if stmt.Type != "expression_statement" {
		return false
	}
	for _, a := range stmt.NamedChildren() {
		if !a.Is("assignment", "augmented_assignment") {
			continue
		}
		left := a.ChildByField("left")
		if left == nil {
			continue
		}
		hit := false
		left.Walk(func(n *rewrite.Node) bool {
			if n.Type == "identifier" && n.Text() == name && (n.Parent == left || n.Parent.Is("pattern_list", "tuple_pattern")) || n == left && n.Text() == name {
				hit = true
			}
			return !hit
		})
		if hit {
			return true
		}
	}
	return false
}

// bceValue reports an nn.BCELoss instance: built here, or a moved copy of
// a name that holds one (`criterion = criterion.to(device)`), on some path.
func bceValue(p *Pass, v *rewrite.Node, depth int) bool {
	qs, _ := constructors(p, v, depth)
	return slices.ContainsFunc(qs, func(q string) bool { return q == "torch.nn.BCELoss" || q == "torch.nn.modules.loss.BCELoss" })
}

// autocastEdits wraps stmts in `with torch.autocast("cuda", dtype=...):`,
// spelled through the file's torch import. ok is false where a statement
// computes a binary cross-entropy on probabilities (nn.BCELoss,
// F.binary_cross_entropy): autocast refuses it, and a sigmoid output in
// bf16 rounds to 1.0 within 0.4% of it, which saturates the loss (a DCGAN
// on an H100 went from loss 2.4 to 35): BCEWithLogitsLoss on the logits is
// the fix, by hand.
func autocastEdits(p *Pass, site *rewrite.Node, stmts []*rewrite.Node, dtype string) ([]rewrite.Edit, bool) {
	return autocastEditsEnabled(p, site, stmts, dtype, "")
}

// autocastEditsEnabled is autocastEdits with an `enabled=` argument in
// the with item where enabled is not empty (dataParallelGuard).
func autocastEditsEnabled(p *Pass, site *rewrite.Node, stmts []*rewrite.Node, dtype, enabled string) ([]rewrite.Edit, bool) {
	ac, ok := p.Model.LocalName(site, "torch.autocast")
	if !ok {
		return nil, false
	}
	dt, ok := p.Model.LocalName(site, dtype)
	if !ok {
		return nil, false
	}
	for _, s := range stmts {
		if len(bceCalls(p, s)) > 0 {
			return nil, false
		}
	}
	if enabled != "" {
		dt += ", enabled=" + enabled
	}
	e, ok := wrapStatements(p, stmts, "with "+ac+`("cuda", dtype=`+dt+"):")
	if !ok {
		return nil, false
	}
	return []rewrite.Edit{e}, true
}

// bceCalls returns the binary cross-entropy calls of a statement: autocast
// raises on them (use BCEWithLogits, or compute them in fp32).
func bceCalls(p *Pass, stmt *rewrite.Node) []*rewrite.Node { return bceCallsIn(p, stmt, 0) }

// bceCallsIn is bceCalls that also looks one level into the functions of
// this file the statement calls (a VAE's loss_function(recon, x, mu,
// logvar) computing F.binary_cross_entropy): the call of such a helper
// counts as a binary cross-entropy call.
func bceCallsIn(p *Pass, stmt *rewrite.Node, depth int) []*rewrite.Node {
	var out []*rewrite.Node
	stmt.Walk(func(n *rewrite.Node) bool {
		if n.Type != "call" {
			return true
		}
		// Two levels: `loss(...)` summing a Dice term and `bce_loss(...)`,
		// which calls F.binary_cross_entropy (blind sample S38AS's glacier
		// U-Net).
		if def := p.Model.CalledDef(n); depth < 2 && def != nil && def.Type == "function_definition" && def.ChildByField("name").Text() != "__init__" {
			if body := def.ChildByField("body"); body != nil && len(bceCallsIn(p, body, depth+1)) > 0 {
				out = append(out, n)
				return true
			}
		}
		switch q := p.Model.CalleeName(n); q {
		case "torch.nn.functional.binary_cross_entropy", "torch.binary_cross_entropy":
			out = append(out, n)
			return true
		}
		fn := n.ChildByField("function")
		var values []*rewrite.Node
		switch fn.Type {
		case "identifier":
			// criterion = nn.BCELoss(), perhaps moved later (criterion =
			// criterion.to(device)), perhaps passed in.
			for _, o := range p.Model.Origins(fn) {
				switch {
				case o.Model != nil:
				case o.Expr != nil:
					values = append(values, o.Expr)
				case o.Def != nil && o.Def.Class && o.Call != nil:
					values = append(values, o.Call) // loss_fn = DiceBCELoss(), a class of a project module
				}
			}
		case "attribute": // self.loss = nn.BCELoss() in __init__
			values = p.Model.SelfAttrValues(fn)
			if len(values) == 0 && instanceBCELoss(p, fn) {
				out = append(out, n)
				return true
			}
		case "call": // nn.BCELoss()(pred, target)
			values = append(values, fn)
		}
		// `criterion = lambda pred, target: 0.5 * nn.BCELoss()(pred,
		// target) + ...` (blind sample S38U's layout UNet, a broken fix):
		// the lambda's body is the loss.
		if depth == 0 && slices.ContainsFunc(values, func(v *rewrite.Node) bool {
			return v.Type == "lambda" && v.ChildByField("body") != nil && len(bceCallsIn(p, v.ChildByField("body"), depth+1)) > 0
		}) {
			out = append(out, n)
			return true
		}
		if slices.ContainsFunc(values, func(v *rewrite.Node) bool { return bceValue(p, v, 0) || depth == 0 && bceLossClass(p, v) }) {
			out = append(out, n)
			return true
		}
		if depth == 0 && projectLossBCE(p, n) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// projectLossBCE reports a call of a loss that comes from a project
// module which computes binary cross-entropy on probabilities: a function
// of that module called directly, one a factory of it returns
// (`loss_func = get_loss_func(loss_type)`, blind sample S37I's DCASE 2017
// clip_bce), or a name looked up in it at run time (`loss_fn =
// getattr(losses, config['loss'])()`). The module is read whole: the
// loss picked by name is one of its losses.
func projectLossBCE(p *Pass, call *rewrite.Node) bool {
	if fm, def := calledFunction(p.Model, call); fm != nil && fm != p.Model && def != nil {
		return foreignBCE(fm, def)
	}
	fn := call.ChildByField("function")
	if fn == nil || fn.Type != "identifier" {
		return false
	}
	for _, o := range p.Model.Origins(fn) {
		if o.Def != nil && !o.Def.Class && o.Model == nil {
			// What a function of a project module returns (a factory of
			// losses): the module computes binary cross-entropy.
			if fm := p.Model.ModuleOf(o.Def); fm != nil && foreignBCE(fm, fm.File.Root) {
				return true
			}
			continue
		}
		v := unchainModuleMethods(o.Expr)
		for v != nil && v.Type == "call" && v.ChildByField("function").Type == "call" {
			v = v.ChildByField("function") // getattr(losses, name)()
		}
		if v == nil || v.Type != "call" {
			continue
		}
		if p.Model.CalleeName(v) == "getattr" {
			if args := rewrite.PositionalArgs(v); len(args) >= 2 && args[0].Type == "identifier" && projectModuleBCE(p, args[0]) {
				return true
			}
		}
	}
	return false
}

// projectModuleBCE reports a name bound by `import losses` (or `from pkg
// import losses`) of a project module that computes binary cross-entropy
// on probabilities.
func projectModuleBCE(p *Pass, name *rewrite.Node) bool {
	b := p.Model.Binding(name)
	if b == nil || b.Kind != rewrite.ImportBinding {
		return false
	}
	d := p.Model.ProjectDefOf(p.File.Src.Path, b.Qualified+"."+rewrite.ModuleKey)
	if d == nil {
		return false
	}
	fm := p.Model.ModuleOf(d)
	return fm != nil && foreignBCE(fm, fm.File.Root)
}

// instanceBCELoss reports `model.loss(...)` where model is built from a
// class, of this file or the project, that sets `self.loss =
// nn.BCELoss()` (TuckER's model carries its loss: blind sample S17L).
func instanceBCELoss(p *Pass, fn *rewrite.Node) bool {
	obj := fn.ChildByField("object")
	if obj == nil || obj.Type != "identifier" {
		return false
	}
	if !p.Memo("amp004.bceLossSpelled", func() any { return p.Model.ProjectSpells("BCELoss") }).(bool) {
		return false // no module of the project builds one
	}
	attr := fn.ChildByField("attribute").Text()
	for _, o := range p.Model.Origins(obj) {
		call := o.Expr
		if o.Def != nil && o.Call != nil {
			call = o.Call
		}
		call = unchainModuleMethods(call)
		if call == nil || call.Type != "call" || o.Model != nil {
			continue
		}
		im, cls := builtClass(p.Model, call)
		if cls == nil {
			continue
		}
		for _, asg := range im.File.OfTypeIn(cls, "assignment") {
			l, r := asg.ChildByField("left"), asg.ChildByField("right")
			if l == nil || r == nil || r.Type != "call" || !selfAttribute(l) || l.ChildByField("attribute").Text() != attr {
				continue
			}
			if q := im.CalleeName(r); q == "torch.nn.BCELoss" || strings.HasSuffix(q, ".BCELoss") {
				return true
			}
		}
	}
	return false
}

// bceLossClass reports an instance of a loss class of this file whose
// methods compute a binary cross-entropy (YOLOv4's Yolo_loss calling
// F.binary_cross_entropy on sigmoid outputs).
func bceLossClass(p *Pass, v *rewrite.Node) bool {
	v = unchainModuleMethods(v)
	if v == nil || v.Type != "call" {
		return false
	}
	fn := v.ChildByField("function")
	if fn == nil || fn.Type != "identifier" {
		return false
	}
	if d := p.Model.ImportedDef(fn); d != nil && d.Class {
		// A loss class of a project module (`from loss import
		// DiceBCELoss`: blind sample S19L's retina U-Net, where the fix
		// raised at the first step).
		fm, cls := p.Model.DefinitionOf(d)
		return cls != nil && foreignBCE(fm, cls)
	}
	b := p.Model.Binding(fn)
	if b == nil || b.Kind != rewrite.ClassBinding {
		return false
	}
	return len(bceCallsIn(p, b.Stmt, 1)) > 0
}

// foreignBCE reports a class of another module whose body calls binary
// cross-entropy on probabilities (F.binary_cross_entropy) or builds
// nn.BCELoss.
func foreignBCE(m *rewrite.Model, cls *rewrite.Node) bool {
	for _, c := range m.File.OfTypeIn(cls, "call") {
		switch m.CalleeName(c) {
		case "torch.nn.functional.binary_cross_entropy", "torch.binary_cross_entropy", "torch.nn.BCELoss":
			return true
		}
	}
	return false
}

// gradScalerSpelling is the GradScaler the project's torch has, and the
// arguments that build it for CUDA: torch.amp.GradScaler("cuda") from
// 2.3, torch.cuda.amp.GradScaler() before (blind samples S39J's MARS on
// torch 1.13 and S39L's Devanagari reader on 2.1 were given the new
// class, which their torch lacks).
func gradScalerSpelling(p *Pass) (string, string) {
	if p.Env.Versions.Torch.AtLeast(2, 3) {
		return "torch.amp.GradScaler", `("cuda")`
	}
	return "torch.cuda.amp.GradScaler", "()"
}

// gradScalerEdits writes the GradScaler that fp16 autocast needs, where the
// step is recognisable: `<loss>.backward()` and, later in the same block,
// `<optimizer>.step()`. It creates the scaler before the outermost loop,
// scales the backward, routes the step through the scaler and updates it,
// unscaling before a gradient clip between the two.
func gradScalerEdits(p *Pass, loops []*rewrite.Node, bstmt, backward *rewrite.Node) ([]rewrite.Edit, bool) {
	src := p.File.Src
	loss := receiver(backward)
	if len(loops) == 0 || loss == nil || bstmt.Type != "expression_statement" || len(bstmt.NamedChildren()) != 1 || bstmt.NamedChildren()[0] != backward ||
		len(backward.ChildByField("arguments").NamedChildren()) != 0 {
		return nil, false
	}
	name := ""
	for _, cand := range []string{"scaler", "grad_scaler"} {
		if !p.File.Spells(cand) {
			name = cand
			break
		}
	}
	scalerQ, scalerArgs := gradScalerSpelling(p)
	gs, ok := p.Model.LocalName(backward, scalerQ)
	if name == "" || !ok {
		return nil, false
	}
	var step, opt *rewrite.Node
	var clips []*rewrite.Node
	after := false
	for _, s := range rewrite.Statements(bstmt.Parent) {
		if s == bstmt {
			after = true
			continue
		}
		if !after || s.Type != "expression_statement" || len(s.NamedChildren()) != 1 || s.NamedChildren()[0].Type != "call" {
			continue
		}
		c := s.NamedChildren()[0]
		if q := p.Model.CalleeName(c); strings.HasPrefix(q, "torch.nn.utils.clip_grad") {
			clips = append(clips, s)
			continue
		}
		fn := c.ChildByField("function")
		if fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "step" && p.Model.IsOptimizer(fn.ChildByField("object")) &&
			len(c.ChildByField("arguments").NamedChildren()) == 0 {
			step, opt = s, fn.ChildByField("object")
			break
		}
	}
	if step == nil || !ownsLine(src, step) || !ownsLine(src, loops[len(loops)-1]) {
		return nil, false
	}
	// Another optimizer stepped in the loop (an encoder's and a
	// decoder's): each must go through the scaler, or the other one
	// steps on scaled, unchecked gradients and turns NaN at the first
	// overflow (blind sample S33BN's polyphonic OMR). The rewrite is
	// then the user's.
	otherStep := false
	for _, c := range p.File.OfTypeIn(loops[0], "call") {
		fn := c.ChildByField("function")
		if c != step.NamedChildren()[0] && fn != nil && fn.Type == "attribute" && fn.ChildByField("attribute").Text() == "step" && p.Model.IsOptimizer(fn.ChildByField("object")) {
			otherStep = true
		}
	}
	if otherStep {
		return nil, false
	}
	outer := loops[len(loops)-1]
	indent := src.IndentOf(outer.Start)
	o := opt.Text()
	edits := []rewrite.Edit{
		{Start: src.LineStart(src.LineOf(outer.Start)), End: src.LineStart(src.LineOf(outer.Start)),
			New: indent + name + " = " + gs + scalerArgs + src.LineEnding},
		{Start: backward.Start, End: loss.End, New: name + ".scale(" + loss.Text() + ")"},
		{Start: step.Start, End: step.End, New: name + ".step(" + o + ")" + src.LineEnding + src.IndentOf(step.Start) + name + ".update()"},
	}
	for _, c := range clips {
		if !ownsLine(src, c) {
			return nil, false
		}
		ls := src.LineStart(src.LineOf(c.Start))
		edits = append(edits, rewrite.Edit{Start: ls, End: ls, New: src.IndentOf(c.Start) + name + ".unscale_(" + o + ")" + src.LineEnding})
	}
	return edits, true
}

// ownsLine reports a node that starts its line.
func ownsLine(src *rewrite.Source, n *rewrite.Node) bool {
	return strings.TrimSpace(src.Text(src.LineStart(src.LineOf(n.Start)), n.Start)) == ""
}

// wrapStatements puts consecutive statements of one block under header,
// indenting each of their lines by the file's indentation unit.
func wrapStatements(p *Pass, stmts []*rewrite.Node, header string) (rewrite.Edit, bool) {
	if len(stmts) == 0 {
		return rewrite.Edit{}, false
	}
	src := p.File.Src
	first, last := stmts[0], stmts[len(stmts)-1]
	for _, s := range stmts {
		multi := false
		s.Walk(func(n *rewrite.Node) bool {
			if n.Type == "string" && src.LineOf(n.Start) != src.LineOf(n.End) {
				multi = true
			}
			return !multi
		})
		if multi {
			return rewrite.Edit{}, false
		}
	}
	if strings.TrimSpace(src.Text(src.LineStart(src.LineOf(first.Start)), first.Start)) != "" {
		return rewrite.Edit{}, false
	}
	lastLine := src.LineOf(last.End)
	if rest := strings.TrimSpace(src.RestOfLine(last.End)); rest != "" && !strings.HasPrefix(rest, "#") {
		return rewrite.Edit{}, false
	}
	start := src.LineStart(src.LineOf(first.Start))
	end := src.LineEnd(lastLine)
	var sb strings.Builder
	sb.WriteString(src.IndentOf(first.Start) + header + src.LineEnding)
	for l := src.LineOf(first.Start); l <= lastLine; l++ {
		text := src.Text(src.LineStart(l), src.LineEnd(l))
		if strings.TrimSpace(text) != "" {
			sb.WriteString(src.IndentUnit)
		}
		sb.WriteString(text)
		if l < lastLine {
			sb.WriteString(src.LineEnding)
		}
	}
	return rewrite.Edit{Start: start, End: end, New: sb.String()}, true
}

// stepFunction returns the function around n when it is a training step
// called once per batch: a call site of it (in this file) sits in a loop
// over a DataLoader (`for x, y in loader: self._run_batch(x, y)`).
func stepFunction(p *Pass, n *rewrite.Node) *rewrite.Node {
	def := n.Ancestor("function_definition")
	if def == nil {
		return nil
	}
	for _, site := range p.Model.CallSites(def) {
		if ls := p.Model.EnclosingLoops(site); len(ls) > 0 && p.Model.Loop(ls[0]).IteratesLoader {
			return def
		}
	}
	return nil
}

// runsForward reports a call of a function of this file whose body calls
// a model (`loss = calc_loss_batch(x, y, model, device)`), following such
// helpers two levels deep.
func runsForward(p *Pass, call *rewrite.Node, depth int) bool {
	def := p.Model.CalledDef(call)
	if def == nil || depth > 1 || def.Ancestor("class_definition") != nil && def.ChildByField("name").Text() == "__init__" {
		return false
	}
	for _, c := range p.File.OfTypeIn(def, "call") {
		if c.Ancestor("function_definition") != def {
			continue // in a nested function
		}
		if p.Model.IsModule(c.ChildByField("function")) || runsForward(p, c, depth+1) {
			return true
		}
	}
	return false
}

// float64Training reports a file that trains in float64: it converts a
// network with `.double()` or `.to(torch.float64)`, or makes float64 the
// default dtype. Autocast and TF32 leave float64 alone (autocast casts
// only fp32 tensors, TF32 is a format for fp32 matmuls), so neither
// rule's fix would change anything there.
func float64Training(p *Pass) bool {
	return p.Memo("float64Training", func() any {
		if src := p.File.Src.Bytes; !bytes.Contains(src, []byte("ouble")) && !bytes.Contains(src, []byte("float64")) {
			return buildsDoubleNetwork(p) // (also in strings: set_default_tensor_type("torch.cuda.DoubleTensor"))
		}
		var float64Name func(n *rewrite.Node) bool
		float64Name = func(n *rewrite.Node) bool {
			if n == nil {
				return false
			}
			if n.Type == "identifier" {
				// `dtype = torch.float64; torch.set_default_dtype(dtype)`:
				// a name bound once (blind sample S24F's DLow).
				if bs := p.Model.Bindings(n); len(bs) == 1 && bs[0].Kind == rewrite.AssignBinding && bs[0].Value != nil && bs[0].Value.Type != "identifier" {
					return float64Name(bs[0].Value)
				}
			}
			switch q := p.Model.QualifiedName(n); q {
			case "torch.float64", "torch.double", "torch.DoubleTensor", "torch.cuda.DoubleTensor":
				return true
			}
			t := strings.Trim(n.Text(), `"'`)
			return n.Type == "string" && (t == "torch.DoubleTensor" || t == "torch.cuda.DoubleTensor" || t == "float64")
		}
		for _, call := range p.File.OfType("call") {
			switch q := p.Model.CalleeName(call); q {
			case "torch.set_default_dtype", "torch.set_default_tensor_type":
				if float64Name(rewrite.Arg(call, 0, "d")) || float64Name(rewrite.Arg(call, 0, "t")) {
					return true
				}
				continue
			}
			fn := call.ChildByField("function")
			if fn == nil || fn.Type != "attribute" {
				continue
			}
			switch fn.ChildByField("attribute").Text() {
			case "double":
			case "to", "type":
				if !float64Name(rewrite.Arg(call, 0, "dtype")) && !float64Name(rewrite.KeywordValue(call, "dtype")) {
					continue
				}
			default:
				continue
			}
			if p.Model.IsModule(fn.ChildByField("object")) {
				return true
			}
		}
		return buildsDoubleNetwork(p)
	}).(bool)
}

// buildsDoubleNetwork reports a file that builds a network class of
// another project module whose __init__ converts its layers to float64
// (`torch.nn.Sequential(...).double()`, `self.double()`): blind sample
// S25G's EEGNet, trained in float64 by a script that never says so.
func buildsDoubleNetwork(p *Pass) bool {
	for _, call := range p.File.OfType("call") {
		fn := call.ChildByField("function")
		if fn == nil || !fn.Is("identifier", "attribute") {
			continue // (`model.AircraftModel()` through `import model`: blind sample S38AR)
		}
		d := p.Model.ImportedDef(fn)
		if d == nil || !d.Class {
			continue
		}
		fm, class := p.Model.DefinitionOf(d)
		if class == nil {
			continue
		}
		init := rewrite.MethodOf(class, "__init__")
		if init == nil {
			continue
		}
		double := false
		init.Walk(func(n *rewrite.Node) bool {
			if double || n.Type != "call" {
				return !double
			}
			if f := n.ChildByField("function"); f.Type == "attribute" && f.ChildByField("attribute").Text() == "double" {
				obj := f.ChildByField("object")
				double = obj.Text() == "self" || fm.IsModule(obj)
			}
			return !double
		})
		if double {
			return true
		}
	}
	return false
}

// warpsByCoordinates reports a file, or a project module it imports
// (three modules away at most: train.py, loss_functions.py,
// inverse_warp.py), that samples images at coordinates it computes with
// matrix products (rewrite.Warps): a depth-and-pose or optical-flow
// view-synthesis loss.
func warpsByCoordinates(p *Pass) bool {
	return p.Memo("torch.warpsByCoordinates", func() any {
		return rewrite.Warps(p.Model) || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.Warps }, 3)
	}).(bool)
}

// matchesParameterGradients reports a file that differentiates through
// gradients taken with respect to parameters:
// `torch.autograd.grad(loss, net_parameters, create_graph=True)`, the
// inputs named for parameters or weights (`model.parameters()`,
// `student_params[-1]`, `w`). A gradient penalty's grad with respect to
// the inputs (WGAN-GP) is not one.
func matchesParameterGradients(p *Pass) bool {
	if !p.File.Spells("create_graph") {
		return false
	}
	for _, call := range p.Model.CallsTo("torch.autograd.grad") {
		cg := rewrite.KeywordArg(call, "create_graph")
		if cg == nil || cg.Text() == "False" {
			continue
		}
		inputs := rewrite.Arg(call, 1, "inputs")
		if inputs == nil {
			continue
		}
		t := strings.ToLower(inputs.Text())
		if strings.Contains(t, "param") || strings.Contains(t, "weight") || t == "w" {
			return true
		}
	}
	return false
}

// periodicForward reports a file that builds a network whose layers
// return torch.sin or torch.cos of their activations (a Sine activation,
// a Fourier feature mapping): a class of this file whose forward returns
// such a call, or a project class this file builds that calls them, from
// a module one of whose classes' forward does. A sinusoidal position
// table built in __init__, or angles turned into normals inside a larger
// forward (BTS's plane guidance), do not count.
func periodicForward(p *Pass) bool {
	return p.Memo("amp004.periodicForward", func() any {
		if !p.Model.ProjectSpells("sin(", "cos(") {
			return false
		}
		sinInForward := func(m *rewrite.Model, cls *rewrite.Node) bool {
			fwd := rewrite.MethodOf(cls, "forward")
			if fwd == nil {
				return false
			}
			for _, ret := range m.File.OfTypeIn(fwd, "return_statement") {
				for _, c := range m.File.OfTypeIn(ret, "call") {
					if q := m.CalleeName(c); q == "torch.sin" || q == "torch.cos" {
						return true
					}
				}
			}
			return false
		}
		for _, cls := range p.File.OfType("class_definition") {
			if sinInForward(p.Model, cls) {
				return true
			}
		}
		for _, call := range p.File.OfType("call") {
			fn := call.ChildByField("function")
			if fn == nil || !fn.Is("identifier", "attribute") {
				continue
			}
			d := p.Model.ImportedDef(fn)
			if d == nil || !d.Class || !slices.Contains(d.Calls, "torch.sin") && !slices.Contains(d.Calls, "torch.cos") {
				continue
			}
			// Its Calls include those of the module's classes it builds (a
			// Sine layer's): look for the forward among them all.
			if m, node := p.Model.DefinitionOf(d); node != nil && m != nil {
				for _, cls := range m.File.OfType("class_definition") {
					if sinInForward(m, cls) {
						return true
					}
				}
			}
		}
		return false
	}).(bool)
}

// forceField reports a file, or a project module it imports (two modules
// away at most), that differentiates an energy by atom positions
// (rewrite.DifferentiatesCoordinates): an interatomic potential trained on
// energies and forces, whose targets (absolute energies of about -11,000
// eV judged to meV, forces through a double backward) bf16's 8-bit
// mantissa and TF32's 10-bit one cannot resolve; atomistic codes keep fp32
// there (blind sample S37D: nine AMP004 and two AMP005 findings on SchNet
// and DimeNet trainers judged false).
func forceField(p *Pass) bool {
	return p.Memo("amp.forceField", func() any {
		return rewrite.DifferentiatesCoordinates(p.Model) || p.Model.ImportsProjectModuleDeep(func(d *rewrite.ProjectDef) bool { return d.ForceMatching }, 2)
	}).(bool)
}

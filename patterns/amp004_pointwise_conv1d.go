package patterns

import (
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// conv1dOnlyProject reports a project that builds Conv1d layers and no
// 2-D or 3-D convolution, torchvision model or timm model: one whose
// convolutional networks take 3-D tensors, where channels_last does not
// apply.
func conv1dOnlyProject(p *Pass) bool {
	return p.Model.ProjectSpells("Conv1d") && !p.Model.ProjectSpells("Conv2d", "Conv3d", "conv2d(", "conv3d(", "torchvision.models", "from torchvision import models", "timm")
}

// pointwiseConv1dTraining reports a file whose training steps run
// point-cloud networks of the PointNet kind: convolutional
// (convolutionalTraining: no attention), built from Conv1d layers of
// kernel 1 only, with no 2-D or 3-D convolution and no torchvision model
// in the project. Such a network is a chain of per-point matrix products
// with batch norms, too small at the batches it trains with for bf16 to
// pay: a PointNet classifier (1024 points, widths up to 1024) ran 0.90×
// with bf16 autocast at batch 20, 0.88× at 32 and 1.02× at 128 on an H200
// (corpus/gpu/amp004_conv1d.py, .notes/amp004-conv1d-h200.txt), and
// channels_last, which makes 2-D CNNs gain, does not apply to Conv1d's
// 3-D tensors (blind sample S26L judged four findings on PCRNet false).
// Temporal convolutions (kernel 3 and more) are not this: a TCN of 256
// channels ran 1.45× with autocast (.notes/amp004-narrow-h100-2.txt).
func pointwiseConv1dTraining(p *Pass) bool {
	return p.Memo("amp004.pointwiseConv1d", func() any {
		if !conv1dOnlyProject(p) {
			return false
		}
		if !convolutionalTraining(p) {
			return false
		}
		found := false
		for _, m := range p.Model.ProjectModelsSpelling("Conv1d") {
			for _, call := range m.File.OfType("call") {
				fn := call.ChildByField("function")
				if fn == nil || !strings.HasSuffix(fn.Text(), "Conv1d") {
					continue
				}
				found = true
				k := rewrite.Arg(call, 2, "kernel_size")
				if k == nil || k.Text() != "1" {
					return false // a temporal convolution, or a kernel read at run time
				}
			}
		}
		return found
	}).(bool)
}

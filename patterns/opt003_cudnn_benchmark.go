package patterns

import (
	"slices"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// CudnnBenchmark is OPT003.
var CudnnBenchmark = &Rule{
	Code:      "OPT003",
	Name:      "cudnn-benchmark",
	Title:     "Set torch.backends.cudnn.benchmark = True in convolutional training",
	Fix:       rewrite.Unsafe,
	Severity:  rewrite.Information,
	Libraries: []string{"torch"},
	// No Names gate: the convolutions may be built by a sibling module's model class or named by a timm model string.
	SkipTestModules: true,
	Check:           checkCudnnBenchmark,
}

func init() { Register(CudnnBenchmark) }

func checkCudnnBenchmark(p *Pass) {
	if !p.Model.IsTrainingScript() || !p.Model.UsesCUDA() || determinismRequested(p) || mentionsQualified(p, "torch.backends.cudnn.benchmark") {
		return
	}
	conv := false
	for _, call := range torchCalls(p) {
		q := p.Model.CalleeName(call)
		if convCallee(q) || q == "timm.create_model" && convTimmModel(rewrite.Arg(call, 0, "model_name")) {
			conv = true
			break
		}
		// A model class of a sibling module that builds convolutions.
		if fn := call.ChildByField("function"); fn != nil && fn.Type == "identifier" {
			if d := p.Model.ImportedDef(fn); d != nil && d.Class && slices.ContainsFunc(d.Calls, convCallee) {
				conv = true
				break
			}
		}
	}
	if !conv {
		return
	}
	start, end, ok := firstTrainingLoopHeader(p)
	if !ok {
		return
	}
	var fix *rewrite.Fix
	if e, ok := insertModuleStatement(p, "torch.backends.cudnn.benchmark", " = True"); ok {
		fix = Fix(rewrite.Unsafe, "Set torch.backends.cudnn.benchmark = True after the imports", e)
	}
	p.ReportRange(start, end, "convolutional training without torch.backends.cudnn.benchmark = True: cuDNN picks convolution algorithms by heuristics (no gain measured at fixed standard shapes; not reproducible bit for bit)", fix)
}

// convCallee reports a convolution layer or a convolutional torchvision
// model.
func convCallee(q string) bool {
	return strings.HasPrefix(q, "torch.nn.Conv") || strings.HasPrefix(q, "torch.nn.ConvTranspose") ||
		strings.HasPrefix(q, "torchvision.models.") && !strings.Contains(q, "vit") && !strings.Contains(q, "swin")
}

// convTimmModel reports a timm model name of a convolutional family.
func convTimmModel(name *rewrite.Node) bool {
	s, ok := rewrite.StringValue(name)
	if !ok {
		return false
	}
	for _, f := range []string{"resnet", "resnext", "efficientnet", "convnext", "regnet", "densenet", "mobilenet", "vgg", "inception", "xception", "dla", "dpn", "senet", "mnasnet"} {
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

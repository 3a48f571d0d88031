package patterns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// TestAMP004EvaluationJoinsTheStep checks that an evaluation loop's
// finding joins the training step's: one finding naming the evaluation
// loop's line, whose fix wraps both loops (a hint for a network of unread
// size, unsafe for one shown large). An evaluation loop whose wrap is
// held back (its outputs go to NumPy) is named with the reason, and the
// step's fix leaves it alone.
func TestAMP004EvaluationJoinsTheStep(t *testing.T) {
	src := `import torch
from models import build_model

model = build_model().cuda()
optimizer = torch.optim.Adam(model.parameters())


def train(loader):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader):
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x.cuda()).argmax(1) == y.cuda()).sum()
    return correct


for epoch in range(10):
    train(train_loader)
    validate(val_loader)
`
	findings := func(src string) []rewrite.Finding {
		return ruleFindings([]byte(src), "AMP004", &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions})
	}
	got := findings(src)
	if len(got) != 1 {
		t.Fatalf("want one AMP004 finding (the step's), got %d: %+v", len(got), got)
	}
	if strings.Contains(got[0].Message, "(5.0× measured on an H100)") || !strings.Contains(got[0].Message, "a Transformer encoder of d 1024 ran 5.0×") {
		t.Errorf("a network of unread size: the size gate quotes the 5.0× once, as the Transformer's, not as the step's promise: %q", got[0].Message)
	}
	if !strings.Contains(got[0].Message, "its evaluation loop at line 20 runs in fp32 too") {
		t.Errorf("the step's message does not name the evaluation loop: %q", got[0].Message)
	}
	if got[0].Fix == nil || len(got[0].Fix.Edits) != 2 || got[0].Fix.Applicability != rewrite.Hint {
		t.Errorf("want a hint fix wrapping both loops (2 edits), got %+v", got[0].Fix)
	}
	if !strings.Contains(got[0].Message, "(the suggested edit wraps it as well)") {
		t.Errorf("a hint is never applied by gpuopt fix: the message must not say the fix wraps the loop: %q", got[0].Message)
	}

	large := strings.Replace(src, "from models import build_model\n", "import torchvision\n", 1)
	large = strings.Replace(large, "build_model()", "torchvision.models.resnet50()", 1)
	got = findings(large)
	if len(got) != 1 || got[0].Fix == nil || len(got[0].Fix.Edits) != 2 || got[0].Fix.Applicability != rewrite.Unsafe ||
		!strings.Contains(got[0].Message, "its evaluation loop at line 20 runs in fp32 too (the fix wraps it as well)") {
		t.Errorf("a network shown large: want one finding whose unsafe fix wraps both loops, got %+v", got)
	}

	numpy := strings.Replace(large, "correct += (model(x.cuda()).argmax(1) == y.cuda()).sum()", "correct += (model(x.cuda()).cpu().numpy().argmax(1) == y.numpy()).sum()", 1)
	got = findings(numpy)
	if len(got) != 1 || got[0].Fix == nil || len(got[0].Fix.Edits) != 1 ||
		!strings.Contains(got[0].Message, "its evaluation loop at line 20 runs in fp32 too, not wrapped by the fix; the loop hands outputs to NumPy") {
		t.Errorf("an evaluation loop whose outputs reach NumPy: want the step's finding naming it, its fix wrapping the step alone, got %+v", got)
	}
}

// TestAMP004ConvolutionalNetworkNamesChannelsLast checks that the finding
// on a convolutional network quotes what bf16 gains there (with
// channels_last, at larger batches) instead of the Transformer's 5.0×,
// and that a Transformer keeps the 5.0×.
func TestAMP004ConvolutionalNetworkNamesChannelsLast(t *testing.T) {
	src := `import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))

    def forward(self, x):
        return self.body(x)


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "AMP004", env)
	if len(got) != 1 {
		t.Fatalf("want one AMP004 finding, got %d: %+v", len(got), got)
	}
	if !strings.Contains(got[0].Message, "together with channels_last (MEM006)") || strings.Contains(got[0].Message, "5.0×") {
		t.Errorf("a convolutional network's finding should quote the CNN measurements, not the Transformer's: %q", got[0].Message)
	}
	transformer := strings.Replace(src, "nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))",
		"nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12)", 1)
	got = ruleFindings([]byte(transformer), "AMP004", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "5.0×") {
		t.Errorf("a Transformer keeps the 5.0×: %+v", got)
	}
	// A temporal convolution network (Conv1d, kernel 3): channels_last,
	// a layout of 4-D tensors, does not apply (blind sample S26L).
	temporal := strings.NewReplacer("nn.Conv2d(3, 256, 3, padding=1)", "nn.Conv1d(3, 256, 3, padding=1)",
		"nn.Conv2d(256, 512, 3, padding=1)", "nn.Conv1d(256, 512, 3, padding=1)", "nn.AdaptiveAvgPool2d(1)", "nn.AdaptiveAvgPool1d(1)").Replace(src)
	got = ruleFindings([]byte(temporal), "AMP004", env)
	if len(got) != 1 || strings.Contains(got[0].Message, "channels_last") || !strings.Contains(got[0].Message, "networks of Conv1d layers") {
		t.Errorf("a Conv1d network: want the temporal-convolution note, no channels_last, got %+v", got)
	}
}

// TestAMP004UnreadNetworkQuotesBothMeasurements checks that a network
// gpuopt cannot read, in a project that builds convolutions, is not
// promised the Transformer's 5.0× (blind sample S38F: a siamese ResNet-50
// change detector built by a missing module), and that the autograd
// Function caveat spells custom_fwd as the declared torch has it.
func TestAMP004UnreadNetworkQuotesBothMeasurements(t *testing.T) {
	src := `import torch
import torch.nn as nn
from models.main_model import ChangeDetection
from torchvision import transforms


class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clamp(-1, 1)

    @staticmethod
    def backward(ctx, g):
        return g


model = ChangeDetection().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for xa, xb, y in loader:
    loss = nn.functional.cross_entropy(model(xa.cuda(), xb.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
`
	for _, c := range []struct {
		torch     Version
		customFwd string
	}{{Version{2, 4}, `torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)`}, {Version{1, 11}, `torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)`}} {
		env := &Env{GPU: targetGPU(t, "h100"), Versions: Versions{Torch: c.torch, XGBoost: DefaultVersions.XGBoost}}
		got := ruleFindings([]byte(src), "AMP004", env)
		if len(got) != 1 {
			t.Fatalf("torch %v: want one AMP004 finding, got %d: %+v", c.torch, len(got), got)
		}
		if !strings.Contains(got[0].Message, "gpuopt could not read which this network is: measure it") || strings.Contains(got[0].Message, "(5.0× measured on an H100)") {
			t.Errorf("torch %v: an unread network beside convolutions should quote both measurements: %q", c.torch, got[0].Message)
		}
		if !strings.Contains(got[0].Message, c.customFwd) {
			t.Errorf("torch %v: want %s in the autograd Function caveat: %q", c.torch, c.customFwd, got[0].Message)
		}
	}
}

// TestAMP004EvaluationRegionCoversItsLoopOnly checks that an autocast
// region around an evaluation loop (what gpuopt's fix of an evaluation
// finding writes) does not hide the training step's finding (blind
// sample S27F's SimCSE: after `fix`, `check` passed with the training
// step still in fp32).
func TestAMP004EvaluationRegionCoversItsLoopOnly(t *testing.T) {
	src := `import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)


def evaluate(loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            for x in loader:
                total += model(x.cuda()).float().mean()
    model.train()
    return total


for epoch in range(10):
    for x in loader:
        out = model(x.cuda())
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(evaluate(dev_loader))
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "AMP004", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "this training step") {
		t.Fatalf("want the training step's finding beside an evaluation region, got %+v", got)
	}
	// A region in a helper with no loop (a step function the loop may
	// call) still covers the step.
	helper := strings.Replace(src, `        with torch.autocast("cuda", dtype=torch.bfloat16):
            for x in loader:
                total += model(x.cuda()).float().mean()`, `        for x in loader:
            total += model(x.cuda()).float().mean()`, 1)
	helper = strings.Replace(helper, "def evaluate(loader):", "def forward(x):\n    with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n        return model(x)\n\n\ndef evaluate(loader):", 1)
	if got := ruleFindings([]byte(helper), "AMP004", env); len(got) != 0 {
		t.Errorf("a region in a loop-free helper covers the step: want no finding, got %+v", got)
	}
}

// TestLibraryCNNsAreConvolutional: networks a library builds are
// convolutional by their names (a timm efficientnet, efficientnet_pytorch,
// a torchvision ResNet-50 backbone inside a project class, beside a
// module of learnable proxies only): AMP004 quotes the CNN measurements,
// not the Transformer's 5.0×, and AMP005 (TF32 matmuls, nothing for
// convolutions) stays silent on the efficientnet_pytorch file (blind
// sample S35N's dermatology classifiers). A timm ViT keeps both.
func TestLibraryCNNsAreConvolutional(t *testing.T) {
	step := `
model = model.cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	timmCNN := "import timm\nimport torch\nimport torch.nn as nn\n\nmodel = timm.create_model(\"tf_efficientnetv2_b0.in1k\", pretrained=True)\n" + step
	if got := ruleFindings([]byte(timmCNN), "AMP004", env); len(got) != 1 || strings.Contains(got[0].Message, "5.0×") || !strings.Contains(got[0].Message, "channels_last") {
		t.Errorf("timm efficientnet: want AMP004 with the CNN note, got %+v", got)
	}
	effnet := "import torch\nimport torch.nn as nn\nfrom efficientnet_pytorch import EfficientNet\n\nmodel = EfficientNet.from_pretrained(\"efficientnet-b7\")\n" + step
	if got := ruleFindings([]byte(effnet), "AMP005", env); len(got) != 0 {
		t.Errorf("efficientnet_pytorch: want no AMP005, got %+v", got)
	}
	timmViT := strings.Replace(timmCNN, "tf_efficientnetv2_b0.in1k", "vit_base_patch16_224", 1)
	if got := ruleFindings([]byte(timmViT), "AMP004", env); len(got) != 1 || !strings.Contains(got[0].Message, "5.0×") {
		t.Errorf("timm ViT: want AMP004 with the Transformer's 5.0×, got %+v", got)
	}
	if got := ruleFindings([]byte(timmViT), "AMP005", env); len(got) != 1 {
		t.Errorf("timm ViT: want AMP005, got %+v", got)
	}

	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("nets.py", `import torch
import torch.nn as nn
import torchvision.models as models


class Backbone(nn.Module):
    def __init__(self, num_classes=8):
        super().__init__()
        cnn = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V1)
        self.features = nn.Sequential(*list(cnn.children())[:-1])
        self.fc = nn.Linear(2048, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class Proxies(nn.Module):
    def __init__(self, dim=8, n=3):
        super().__init__()
        self.proxies = nn.init.xavier_uniform_(nn.Parameter(torch.empty(n, dim)))

    def forward(self):
        return nn.functional.normalize(self.proxies, dim=-1)
`)
	write("train.py", `import torch
import torch.nn as nn

from nets import Backbone, Proxies

model = Backbone()
proxies = Proxies().cuda()
`+strings.Replace(step, "optimizer = torch.optim.Adam(model.parameters(), fused=True)", "optimizer = torch.optim.Adam(list(model.parameters()) + list(proxies.parameters()), fused=True)", 1))
	path := filepath.Join(dir, "train.py")
	src, _ := os.ReadFile(path)
	f := rewrite.Parse(path, src)
	defer f.Release()
	var got []rewrite.Finding
	for _, fd := range Run(f, Selection{Select: []string{"AMP004"}}, &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions, Project: workspace.NewProject(dir)}) {
		got = append(got, fd)
	}
	if len(got) != 1 || strings.Contains(got[0].Message, "5.0×") || !strings.Contains(got[0].Message, "channels_last") {
		t.Errorf("a project class around a torchvision ResNet-50: want AMP004 with the CNN note, got %+v", got)
	}
}

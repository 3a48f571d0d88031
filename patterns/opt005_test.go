package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestOPT005NamesTheLauncherOfThePinnedTorch checks that the advice names
// torchrun only where the pinned torch has it (1.10 and later): before,
// DistributedDataParallel is launched with torch.distributed.launch
// (blind sample S14B: torch 1.2 and 1.8.1 pins).
func TestOPT005NamesTheLauncherOfThePinnedTorch(t *testing.T) {
	src := `import torch
from torch import nn

model = nn.DataParallel(nn.Linear(512, 512)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
`
	message := func(torch Version) string {
		env := &Env{GPU: targetGPU(t, "h100"), Versions: Versions{Torch: torch, XGBoost: DefaultVersions.XGBoost}}
		if got := ruleFindings([]byte(src), "OPT005", env); len(got) > 0 {
			return got[0].Message
		}
		return ""
	}
	if m := message(Version{1, 8}); !strings.Contains(m, "launched with python -m torch.distributed.launch") {
		t.Errorf("torch 1.8: %q", m)
	}
	if m := message(Version{1, 10}); !strings.Contains(m, "launched with torchrun") {
		t.Errorf("torch 1.10: %q", m)
	}
}

// TestRemovedAPIBoundsTorch checks that code calling an API a later
// release removed is advised for the torch before that release: legacy
// torchtext fields (torch 1.7 or older) get no fused=True, and OPT002
// (set_to_none, from 1.7) only with a pin that gives the floor (blind
// sample S18J's seq2seq ran on torch 0.4);
// transforms.Scale (torch 1.10 or older) gets no TF32 call (blind sample
// S14E: both fixes failed on the only torch those projects run on).
func TestRemovedAPIBoundsTorch(t *testing.T) {
	src := corpusFile(t, "OPT001/removed_api_bound.py")
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	codes := func(src []byte) map[string]bool {
		got := map[string]bool{}
		for _, fd := range Run(rewrite.Parse("t.py", src), Selection{}, env) {
			got[fd.Code] = true
		}
		return got
	}
	if got := codes(src); got["OPT002"] || got["OPT001"] {
		t.Errorf("legacy torchtext: want no OPT002 (torch 1.7 or older, maybe older than set_to_none) and no OPT001, got %v", got)
	}
	pinned := *env
	pinned.Versions.Torch = Version{1, 7}
	pinned.GPU = targetGPU(t, "a100-80gb") // (an H100 runs PyTorch from 2.0: no OPT002 there)
	env = &pinned
	if got := codes(src); !got["OPT002"] || got["OPT001"] {
		t.Errorf("legacy torchtext on a torch 1.7 pin: want OPT002 and no OPT001, got %v", got)
	}
	env = &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	scaled := []byte(`import torch
import torchvision
from torchvision import transforms

tf = transforms.Compose([transforms.Scale(256), transforms.ToTensor()])
model = torchvision.models.vit_b_16().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
`)
	if got := codes(scaled); got["AMP005"] {
		t.Errorf("transforms.Scale: want no AMP005 (set_float32_matmul_precision needs torch 1.12), got %v", got)
	}
	if got := codes([]byte(strings.Replace(string(scaled), "transforms.Scale(256)", "transforms.Resize(256)", 1))); !got["AMP005"] {
		t.Errorf("transforms.Resize: want AMP005, got %v", got)
	}
}

// TestBuildsLayer checks which class bodies count as building a layer
// (parameterless: OPT004 and OPT005 leave instances of the others alone).
func TestBuildsLayer(t *testing.T) {
	for _, tc := range []struct {
		calls []string
		want  bool
	}{
		// A label-smoothing loss (blind sample S23G's LSR): a LogSoftmax,
		// tensor factories and a raised ValueError build no parameter.
		{[]string{"super", "torch.nn.LogSoftmax", "torch.zeros", "ValueError"}, false},
		{[]string{"torch.nn.Linear", "torch.nn.ReLU"}, true},
		// YOLOv3's head: an Upsample beside helpers that build convolutions.
		{[]string{"torch.nn.Upsample", "nets.yolo.conv2d"}, true},
		{[]string{"super", "models.blocks.DoubleConv"}, true},
	} {
		if got := buildsLayer(tc.calls); got != tc.want {
			t.Errorf("buildsLayer(%q) = %v, want %v", tc.calls, got, tc.want)
		}
	}
}

// TestOPT005SaysWhenItApplies checks that the message says DataParallel
// costs only on several GPUs, and names the guard of a wrap that runs
// only there (blind samples judged the unqualified message false for a
// one-H100 target).
func TestOPT005SaysWhenItApplies(t *testing.T) {
	src := `import torch
import torchvision

model = torchvision.models.resnet50().cuda()
if torch.cuda.device_count() > 1:
    model = torch.nn.DataParallel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "OPT005", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "runs only when `torch.cuda.device_count() > 1`") {
		t.Fatalf("a wrap under a device-count test: want one finding naming the guard, got %+v", got)
	}
	plain := strings.Replace(src, "if torch.cuda.device_count() > 1:\n    model", "model", 1)
	got = ruleFindings([]byte(plain), "OPT005", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "on one GPU the wrapper calls the model directly") {
		t.Fatalf("an unconditional wrap: want one finding saying it costs only on several GPUs, got %+v", got)
	}
}

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
		for _, fd := range Run(rewrite.Parse("t.py", []byte(src)), Selection{Select: []string{"OPT005"}}, env) {
			if fd.Code == "OPT005" {
				return fd.Message
			}
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

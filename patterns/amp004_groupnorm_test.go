package patterns

import (
	"strings"
	"testing"
)

// TestAMP004GroupNormNoteOnlyForProjectNetworks: the note that
// channels_last does not pay under GroupNorm is for a project's own
// networks; a torchvision ResNet-50 (BatchNorm) with a GroupNorm head of
// the project keeps the usual convolutional note (the review of session
// 39's change).
func TestAMP004GroupNormNoteOnlyForProjectNetworks(t *testing.T) {
	const own = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.norm = nn.GroupNorm(8, c)

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))


model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), *[Block(256) for _ in range(8)], nn.Conv2d(256, 1, 1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
torch.backends.cudnn.benchmark = True
for x, y in loader:
    x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	const note = "normalise with GroupNorm"
	got := ruleFindings([]byte(own), "AMP004", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, note) {
		t.Fatalf("a project network of conv + GroupNorm blocks: %+v", got)
	}
	library := strings.Replace(own, "import torch.nn.functional as F\n", "import torch.nn.functional as F\nimport torchvision\n", 1)
	library = strings.Replace(library, "model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), *[Block(256) for _ in range(8)], nn.Conv2d(256, 1, 1)).cuda()",
		"model = nn.Sequential(torchvision.models.resnet50(), nn.GroupNorm(8, 1000)).cuda()", 1)
	got = ruleFindings([]byte(library), "AMP004", env)
	if len(got) != 1 || strings.Contains(got[0].Message, note) {
		t.Errorf("a torchvision ResNet-50 with a GroupNorm head: %+v", got)
	}
}

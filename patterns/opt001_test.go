package patterns

import (
	"strings"
	"testing"
)

// TestOPT001NarrowNetworkSaysTheStepGain checks that an optimizer over a
// network gpuopt reads as narrow quotes what whole steps of such
// networks measured beside the optimizer's own 2.0× (blind sample S38L:
// Adams over a LeNet and a 500-wide discriminator, trained by a class of
// another module), and that a wide network's finding does not.
func TestOPT001NarrowNetworkSaysTheStepGain(t *testing.T) {
	src := `import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(500, 500), nn.ReLU(), nn.Linear(500, 1))

    def forward(self, x):
        return self.body(x)


discriminator = Discriminator().to(device)
optimizer = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
run_experiment(discriminator, optimizer)
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "OPT001", env)
	if len(got) != 1 || !strings.Contains(got[0].Message, "whole training steps measured 1.08-1.18×") {
		t.Fatalf("a narrow network's OPT001 should quote the whole-step measurement: %+v", got)
	}
	wide := strings.ReplaceAll(src, "500", "4096")
	got = ruleFindings([]byte(wide), "OPT001", env)
	if len(got) != 1 || strings.Contains(got[0].Message, "whole training steps measured") {
		t.Errorf("a 4096-wide network's OPT001 should not carry the narrow note: %+v", got)
	}
}

package patterns

import (
	"strings"
	"testing"
)

// TestSYNC002SeveralReadsOfOneStep checks that the findings of several
// totals read with .item() in one step name each other: the step waits
// at the first read, so the gain needs them all on the device (blind
// sample S38AQ's RetinaNet engine). A loop with one read says nothing
// of the kind.
func TestSYNC002SeveralReadsOfOneStep(t *testing.T) {
	src := `import torch
import torchvision

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(loader):
    total, cls = 0.0, 0.0
    for x, y in loader:
        out = model(x.cuda())
        loss = torch.nn.functional.cross_entropy(out, y.cuda())
        aux = out.pow(2).mean()
        optimizer.zero_grad()
        (loss + aux).backward()
        optimizer.step()
        total += loss.item()
        cls += aux.item()
    return total, cls
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "SYNC002", env)
	if len(got) != 2 {
		t.Fatalf("want two SYNC002 findings, got %d: %+v", len(got), got)
	}
	for _, fd := range got {
		if !strings.Contains(fd.Message, "The step waits at the first of its 2 reads (lines 17, 18)") {
			t.Errorf("a read of a step with two: %q", fd.Message)
		}
	}
	one := strings.Replace(src, "        cls += aux.item()\n", "", 1)
	got = ruleFindings([]byte(one), "SYNC002", env)
	if len(got) != 1 || strings.Contains(got[0].Message, "The step waits at the first") {
		t.Errorf("a step with one read: %+v", got)
	}
}

// TestSYNC002AppendedDetachedValue: `losses.append(float(loss.detach()))`
// is told to append `loss.detach()`, not `loss.detach().detach()` (blind
// sample S39E's SEVIR smoke script).
func TestSYNC002AppendedDetachedValue(t *testing.T) {
	src := `import torch
import torchvision

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(loader):
    losses = []
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()))
    return losses
`
	env := &Env{GPU: targetGPU(t, "h100"), Versions: DefaultVersions}
	got := ruleFindings([]byte(src), "SYNC002", env)
	if len(got) != 1 {
		t.Fatalf("want one SYNC002 finding, got %d: %+v", len(got), got)
	}
	if msg := got[0].Message; !strings.Contains(msg, "append loss.detach() and") || strings.Contains(msg, "detach().detach()") {
		t.Errorf("message: %q", msg)
	}
}

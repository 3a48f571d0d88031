package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestSYNC005NamesTheStepsOtherWaits checks that a per-step log in a step
// that reads other tensors to the host names those lines: moving the log
// alone gains nothing while they stay (blind sample NN's U-Net).
func TestSYNC005NamesTheStepsOtherWaits(t *testing.T) {
	src := `import torch
import wandb

model = torch.nn.Linear(8, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
epoch_loss = 0
for x in loader:
    loss = model(x.cuda()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    epoch_loss += loss.item()
    wandb.log({"train loss": loss.item()})
`
	var msgs []string
	for _, fd := range Run(rewrite.Parse("t.py", []byte(src)), Selection{Select: []string{"SYNC005"}}, nil) {
		if fd.Code == "SYNC005" {
			msgs = append(msgs, fd.Message)
		}
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "the step also waits at line 12") {
		t.Fatalf("want one SYNC005 naming line 12, got %q", msgs)
	}
	alone := strings.Replace(src, "    epoch_loss += loss.item()\n", "", 1)
	for _, fd := range Run(rewrite.Parse("t.py", []byte(alone)), Selection{Select: []string{"SYNC005"}}, nil) {
		if strings.Contains(fd.Message, "also waits") {
			t.Errorf("a step whose only wait is the log names other lines: %q", fd.Message)
		}
	}
}

// TestSYNC005NamesTheDeviceRead checks that a print reading both a host
// batch element and a device tensor names the device read (blind sample
// S14I: the message said count[0].item(), a CPU tensor, waits for the GPU).
func TestSYNC005NamesTheDeviceRead(t *testing.T) {
	var msgs []string
	for _, fd := range ruleFindings(corpusFile(t, "SYNC005/host_batch_read.py"), "SYNC005", nil) {
		msgs = append(msgs, fd.Message)
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "reads torch.sum(outputs).item()") {
		t.Fatalf("want one SYNC005 naming torch.sum(outputs).item(), got %q", msgs)
	}
}

package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// TestSYNC001NamesTheRunningTotal checks that a per-step .cpu() in a loop
// that also sums loss.item() names that line: deferring the copies alone
// gains nothing while the total still waits every step (blind sample WW's
// Kaggle MoA validation loop, here under a progress bar: host work per
// step, without which SYNC001 is silent on a loop that trains nothing).
func TestSYNC001NamesTheRunningTotal(t *testing.T) {
	src := `import numpy as np
import torch
from tqdm import tqdm


def valid_fn(model, loss_fn, dataloader):
    model.eval()
    final_loss = 0
    valid_preds = []
    for x, y in tqdm(dataloader):
        outputs = model(x.cuda())
        loss = loss_fn(outputs, y.cuda())
        final_loss += loss.item()
        valid_preds.append(outputs.sigmoid().detach().cpu().numpy())
    return final_loss, np.concatenate(valid_preds)
`
	messages := func(src string) []string {
		var out []string
		for _, fd := range Run(rewrite.Parse("t.py", []byte(src)), Selection{Select: []string{"SYNC001"}}, nil) {
			if fd.Code == "SYNC001" {
				out = append(out, fd.Message)
			}
		}
		return out
	}
	if msgs := messages(src); len(msgs) != 1 || !strings.Contains(msgs[0], "running total's .item() at line 13") {
		t.Fatalf("want one SYNC001 naming line 13, got %q", msgs)
	}
	alone := strings.Replace(src, "        final_loss += loss.item()\n", "", 1)
	if msgs := messages(alone); len(msgs) != 1 || strings.Contains(msgs[0], "running total") {
		t.Errorf("want one SYNC001 naming no running total, got %q", msgs)
	}
}

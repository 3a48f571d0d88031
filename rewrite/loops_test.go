package rewrite

import (
	"strings"
	"testing"
)

// TestRunsOnce: a loop whose body ends in a break runs once, unless a
// continue may skip to the next item or an outer loop runs it again (one
// batch per epoch); the loops are named by the variable they bind.
func TestRunsOnce(t *testing.T) {
	src := `for init in loader:
    model(init)
    break
for probe in loader:
    if probe is None:
        continue
    model(probe)
    break
for epoch in range(10):
    for batch in loader:
        model(batch)
        break
for step in loader:
    if step is None:
        break
    model(step)
def helper():
    for first in loader:
        return first
    for once in loader:
        def inner():
            for x in loader:
                continue
        break
`
	want := map[string]bool{"init": true, "probe": false, "epoch": false, "batch": false, "step": false, "first": false, "once": true}
	f := Parse("t.py", []byte(src))
	for _, loop := range f.OfType("for_statement") {
		name := loop.ChildByField("left").Text()
		if got := RunsOnce(loop); got != want[name] {
			t.Errorf("RunsOnce(for %s) = %v, want %v", name, got, want[name])
		}
		delete(want, name)
	}
	if len(want) > 0 {
		t.Errorf("loops not found: %s", strings.Join(keys(want), ", "))
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestWholeBatchLoaderRunsOnce reads a loop over a DataLoader whose batch
// is its whole dataset as one pass (nothing per step), and one over a
// loader of smaller batches as a training loop.
func TestWholeBatchLoaderRunsOnce(t *testing.T) {
	src := `import torch
from torch.utils.data import DataLoader
whole = DataLoader(ds, batch_size=len(ds))
small = DataLoader(ds, batch_size=32)
for x, y in whole:
    loss = model(x.cuda()).sum()
    loss.backward()
for x, y in enumerate(small):
    loss = model(x.cuda()).sum()
    loss.backward()
`
	f := Parse("t.py", []byte(src))
	m := f.Model()
	loops := f.OfType("for_statement")
	if len(loops) != 2 {
		t.Fatalf("%d loops", len(loops))
	}
	if m.Loop(loops[0]).Trains() {
		t.Errorf("the loop over the whole-batch loader trains per step")
	}
	if !m.Loop(loops[1]).Trains() {
		t.Errorf("the loop over the 32-batch loader does not train")
	}
}

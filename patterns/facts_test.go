package patterns

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// A model class and a loader helper defined in sibling modules: with the
// project index the facts know what they are, without it they do not.
func TestFactsThroughSiblingModules(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"model.py": "import torch.nn as nn\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n",
		"data.py":  "from torch.utils.data import DataLoader\n\ndef prepare_dataloader(ds):\n    return DataLoader(ds, batch_size=8)\n",
		"train.py": `import torch
from model import Net
from data import prepare_dataloader

model = Net().cuda()
loader = prepare_dataloader(list(range(8)))
for x in loader:
    out = model(x.cuda())
    out.sum().backward()
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "train.py")
	src, _ := os.ReadFile(path)
	kinds := func(project rewrite.ProjectIndex) (Kind, Kind) {
		f := rewrite.Parse(path, src)
		defer f.Release()
		m := f.Model()
		m.SetProject(project)
		fx := newFacts(m)
		var model, loader Kind
		for _, id := range f.Identifiers("model") {
			if id.Parent.Type == "call" {
				model = fx.What(id).Kind
			}
		}
		for _, id := range f.Identifiers("loader") {
			if id.Parent.Type == "for_statement" {
				loader = fx.What(id).Kind
			}
		}
		return model, loader
	}
	if m, l := kinds(workspace.NewProject(dir)); m != KindModule || l != KindLoader {
		t.Errorf("with the project index: model is %v, loader is %v; want model, DataLoader", m, l)
	}
	if m, l := kinds(nil); m != KindUnknown || l != KindUnknown {
		t.Errorf("without the project index: model is %v, loader is %v; want unknown, unknown", m, l)
	}
}

// A script whose epoch loop calls a training function of a sibling module
// trains, although it never spells backward itself.
func TestTrainingThroughSiblingFunction(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"engine.py": "def train_one_epoch(model, loader, opt):\n    for x, y in loader:\n        opt.zero_grad()\n        loss = model(x, y)\n        loss.backward()\n        opt.step()\n",
		"main.py":   "import torch\nfrom engine import train_one_epoch\n\nmodel = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024)).cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor epoch in range(10):\n    train_one_epoch(model, [], opt)\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "main.py")
	src, _ := os.ReadFile(path)
	codes := func(project rewrite.ProjectIndex) map[string]bool {
		f := rewrite.Parse(path, src)
		defer f.Release()
		out := map[string]bool{}
		for _, fd := range Run(f, Selection{Select: []string{"AMP005"}}, &Env{Versions: DefaultVersions, Project: project}) {
			out[fd.Code] = true
		}
		return out
	}
	if !codes(workspace.NewProject(dir))["AMP005"] {
		t.Error("with the project index: no AMP005 on a script that trains through engine.train_one_epoch")
	}
	if codes(nil)["AMP005"] {
		t.Error("without the project index: AMP005 on a script that shows no training")
	}
}

// TestMemoFactCyclesAreNotCached: in a cycle A → B → A, B's answer is
// computed while A is still open (A answers Fact{} inside it), so B is
// not cached: asked later on its own, B is computed again and sees A's
// final answer. A, where the cycle closes, is cached.
func TestMemoFactCyclesAreNotCached(t *testing.T) {
	fx := &Facts{}
	cache := map[string]Fact{}
	computedB := 0
	var askA, askB func() Fact
	askA = func() Fact {
		return memoFact(fx, cache, "A", func() Fact {
			askB()
			return Fact{Kind: KindModule}
		})
	}
	askB = func() Fact {
		return memoFact(fx, cache, "B", func() Fact {
			computedB++
			return askA() // Fact{} while A is open
		})
	}
	if got := askA(); got.Kind != KindModule {
		t.Fatalf("A = %v, want a module", got.Kind)
	}
	if _, ok := cache["B"]; ok {
		t.Fatalf("B was cached though it read A while A was open")
	}
	if got := askB(); got.Kind != KindModule || computedB != 2 {
		t.Fatalf("B asked later = %v (computed %d times), want A's final answer, computed again", got.Kind, computedB)
	}
	if _, ok := cache["B"]; !ok {
		t.Fatalf("B, computed with no question open, was not cached")
	}
	if fx.cycleAt != 0 || len(fx.busy) != 0 {
		t.Fatalf("state left behind: cycleAt %d, busy %v", fx.cycleAt, fx.busy)
	}
}

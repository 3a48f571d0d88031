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

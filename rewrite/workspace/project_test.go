package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestProjectResolvesSiblingDefinitions(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"model.py": "import torch.nn as nn\n\nclass Base(nn.Module):\n    pass\n\nclass Net(Base):\n    pass\n\nclass Plain:\n    pass\n",
		"data.py": "from torch.utils.data import DataLoader\n\ndef make_loader(ds):\n    loader = DataLoader(ds, batch_size=4)\n    return loader\n\n" +
			"def make_net():\n    from model import Net\n    return Net().cuda()\n\n" +
			"def run_epoch(model, loader, opt):\n    for i, (x, y) in enumerate(loader):\n        opt.zero_grad()\n        model(x).sum().backward()\n\n" +
			"def evaluate(model, dataloader):\n    bar = enumerate(dataloader)\n    for step, data in bar:\n        model(data)\n",
		"pkg/__init__.py": "",
		"pkg/layers.py":   "from torch import nn\n\nclass Head(nn.Linear):\n    pass\n",
		"pkg/train.py":    "from .layers import Head\n",
		"train.py":        "from model import Net\n",
	})
	p := NewProject(dir)
	from := filepath.Join(dir, "train.py")
	net := p.Def(from, "model", "Net")
	if net == nil || !net.Class || !slices.Contains(net.Bases, "torch.nn.Module") {
		t.Fatalf("model.Net = %+v, want a class with base torch.nn.Module", net)
	}
	if plain := p.Def(from, "model", "Plain"); plain == nil || len(plain.Bases) != 0 {
		t.Fatalf("model.Plain = %+v, want a class without bases", plain)
	}
	mk := p.Def(from, "data", "make_loader")
	if mk == nil || mk.Class || !slices.Contains(mk.Returns, "torch.utils.data.DataLoader") {
		t.Fatalf("data.make_loader = %+v, want a function returning a DataLoader", mk)
	}
	run := p.Def(from, "data", "run_epoch")
	if run == nil || !run.Trains || !slices.Equal(run.Params, []string{"model", "loader", "opt"}) || !slices.Equal(run.Iterated, []string{"loader"}) {
		t.Fatalf("data.run_epoch = %+v, want a training function iterating loader", run)
	}
	if ev := p.Def(from, "data", "evaluate"); ev == nil || ev.Trains || !slices.Equal(ev.Iterated, []string{"dataloader"}) {
		t.Fatalf("data.evaluate = %+v, want a function iterating dataloader through bar", ev)
	}
	if mk.Trains {
		t.Fatalf("data.make_loader = %+v, does not train", mk)
	}
	head := p.Def(filepath.Join(dir, "pkg", "train.py"), ".layers", "Head")
	if head == nil || !slices.Contains(head.Bases, "torch.nn.Linear") {
		t.Fatalf(".layers.Head = %+v, want a class with base torch.nn.Linear", head)
	}
	if p.Def(from, "torch.nn", "Linear") != nil || p.Def(from, "model", "Missing") != nil {
		t.Fatal("a library or a missing name resolved to a project definition")
	}
	// A changed module is read again after Forget.
	writeFiles(t, dir, map[string]string{"model.py": "class Net:\n    pass\n"})
	p.Forget(filepath.Join(dir, "model.py"))
	if net := p.Def(from, "model", "Net"); net == nil || len(net.Bases) != 0 {
		t.Fatalf("after Forget model.Net = %+v, want the new definition", net)
	}
}

func TestProjectImportersAndCallSites(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"engine.py": "def fit(model, loader):\n    for x in loader:\n        model(x)\n\nclass Runner:\n    def __init__(self, loader, device):\n        self.loader = loader\n\n" +
			"    def epoch(self):\n        for x in tqdm(self.loader):\n            pass\n\n    def run(self, n):\n        for _ in range(n):\n            self.epoch()\n",
		"main.py": "from engine import (\n    fit,\n    Runner as R,\n)\nfrom torch.utils.data import DataLoader\n\n" +
			"loader = DataLoader(ds, pin_memory=True)\nfit(net, loader)\nR(loader, 'cuda')\n",
		"star.py":         "from engine import *\n\nfit(net, other)\n",
		"reexport.py":     "from engine import fit\n",
		"elsewhere.py":    "from other.engine import fit\nfit(a, b)\n",
		"kaggle.py":       "import torch, engine\nimport numpy as np  # import engine\n\nengine.fit(net, valid_loader)\n",
		"config.py":       "import torch\nDEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nRATE = 0.1\n",
		"pkg/__init__.py": "",
	})
	p := NewProject(dir)
	engine := filepath.Join(dir, "engine.py")
	got := p.Importers(engine, "fit")
	want := []string{filepath.Join(dir, "kaggle.py"), filepath.Join(dir, "main.py"), filepath.Join(dir, "reexport.py"), filepath.Join(dir, "star.py")}
	if !slices.Equal(got, want) {
		t.Fatalf("Importers(engine, fit) = %v, want %v (other.engine is another module; kaggle.py imports the module)", got, want)
	}
	if got := p.Importers(engine, "Runner"); !slices.Equal(got, []string{want[0], want[1], want[3]}) {
		t.Fatalf("Importers(engine, Runner) = %v, want kaggle.py (the module), main.py (as R) and the star import", got)
	}
	// A submodule imported by name from its package, then called through
	// it (`from core import function` ... `function.train(...)`, and the
	// relative `from . import function` of a module beside it).
	writeFiles(t, dir, map[string]string{
		"core/__init__.py": "",
		"core/function.py": "def train(model, loader):\n    for x in loader:\n        model(x)\n",
		"core/tools.py":    "from . import function\n\nfunction.train(net, loader)\n",
		"run.py":           "from core import function\n\nfunction.train(net, loader)\n",
	})
	fresh := NewProject(dir)
	if got := fresh.Importers(filepath.Join(dir, "core", "function.py"), "train"); !slices.Equal(got, []string{filepath.Join(dir, "core", "tools.py"), filepath.Join(dir, "run.py")}) {
		t.Fatalf("Importers(core/function.py, train) = %v, want core/tools.py and run.py (they import the submodule by name)", got)
	}
	// The calls themselves, with the caller's argument expressions.
	src, _ := os.ReadFile(engine)
	f := rewrite.Parse(engine, src)
	m := f.Model()
	m.SetProject(p)
	sites := func(def *rewrite.Node) []string {
		var calls []string
		for _, fc := range m.ForeignCallSites(def) {
			calls = append(calls, filepath.Base(fc.Model.File.Src.Path)+": "+fc.Call.Text())
		}
		return calls
	}
	if calls := sites(m.Module.Bindings["fit"][0].Stmt); !slices.Equal(calls, []string{"kaggle.py: engine.fit(net, valid_loader)", "main.py: fit(net, loader)", "star.py: fit(net, other)"}) {
		t.Fatalf("ForeignCallSites(fit) = %q", calls)
	}
	// A class is called by building an instance: its __init__'s sites.
	init := rewrite.MethodOf(m.Module.Bindings["Runner"][0].Stmt, "__init__")
	if calls := sites(init); !slices.Equal(calls, []string{"main.py: R(loader, 'cuda')"}) {
		t.Fatalf("ForeignCallSites(Runner.__init__) = %q", calls)
	}
	f.Release()
	// A class keeps its loader parameter and iterates it once per epoch.
	if r := p.Def(filepath.Join(dir, "main.py"), "engine", "Runner"); r == nil || !slices.Equal(r.Params, []string{"loader", "device"}) ||
		!slices.Equal(r.Iterated, []string{"loader"}) || !slices.Equal(r.EpochIterated, []string{"loader"}) {
		t.Fatalf("engine.Runner = %+v, want loader kept and iterated per epoch", r)
	}
	// A module-level constant naming a device is summarised.
	if d := p.Def(engine, "config", "DEVICE"); d == nil || !d.Var || d.Device != rewrite.DeviceMaybeCUDA {
		t.Fatalf("config.DEVICE = %+v, want a CUDA-when-available device constant", d)
	}
	if d := p.Def(engine, "config", "RATE"); d != nil {
		t.Fatalf("config.RATE = %+v, want no entry (names no device)", d)
	}
}

// A package __init__ that re-exports its model, and a model module that
// star-imports its building blocks (milesial/Pytorch-UNet's layout): the
// class resolves through both, and what its blocks build is found.
func TestProjectFollowsReexportsAndStarImports(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"unet/__init__.py": "from .unet_model import UNet\n",
		"unet/unet_parts.py": "import torch.nn as nn\n\nclass DoubleConv(nn.Module):\n    def __init__(self, a, b):\n        super().__init__()\n        self.net = nn.Sequential(nn.Conv2d(a, b, 3), nn.ReLU())\n\n" +
			"class Down(nn.Module):\n    def __init__(self, a, b):\n        super().__init__()\n        self.conv = DoubleConv(a, b)\n",
		"unet/unet_model.py": "from .unet_parts import *\n\nclass UNet(nn.Module):\n    def __init__(self, c):\n        super().__init__()\n        self.inc = DoubleConv(c, 64)\n        self.down = Down(64, 128)\n",
		"train.py":           "from unet import UNet\n",
	})
	p := NewProject(dir)
	from := filepath.Join(dir, "train.py")
	d := p.Def(from, "unet", "UNet")
	if d == nil || !d.Class || !slices.Contains(d.Bases, "torch.nn.Module") {
		t.Fatalf("UNet through the package __init__: %+v", d)
	}
	f := rewrite.Parse(from, []byte("from unet import UNet\nmodel = UNet(3)\n"))
	m := f.Model()
	m.SetProject(p)
	isConv := func(q string) bool { return q == "torch.nn.Conv2d" }
	if !m.ClassCalls(d, isConv) {
		t.Errorf("UNet's blocks build nn.Conv2d: calls %v", d.Calls)
	}
	if down := p.Local(filepath.Join(dir, "unet", "unet_parts.py"), "Down"); down == nil || !slices.Contains(down.Calls, "torch.nn.Conv2d") {
		t.Errorf("Down builds DoubleConv, which builds nn.Conv2d: %+v", down)
	}
	if p.Def(from, "unet", "Missing") != nil {
		t.Error("a name the package does not have resolved")
	}
}

func TestModulesSpellingAndRepositoryTop(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD":          "ref: refs/heads/main\n",
		"layers/spectral.py": "import torch\n\ndef mix(x):\n    return torch.fft.rfft(x)\n",
		"train.py":           "from layers.spectral import mix\n",
		"notes.txt":          "torch.fft\n",
	})
	p := NewProject(dir)
	got := p.ModulesSpelling("torch.fft")
	if len(got) != 1 || filepath.Base(got[0]) != "spectral.py" {
		t.Errorf("ModulesSpelling(torch.fft) = %v, want layers/spectral.py only (notes.txt is no module)", got)
	}
	if got := p.ModulesSpelling("np.fft"); len(got) != 0 {
		t.Errorf("ModulesSpelling(np.fft) = %v, want none", got)
	}
	top := p.repositoryTop(filepath.Join(dir, "layers"))
	if want, _ := filepath.Abs(dir); top != want && top != dir {
		t.Errorf("repositoryTop = %q, want %q", top, dir)
	}
	if !p.CoversRepository(filepath.Join(dir, "train.py")) {
		t.Error("a project rooted at the repository top covers it")
	}
	// A project rooted in a subfolder scans from the repository's top,
	// so it covers the repository and sees the importers outside it.
	sub := NewProject(filepath.Join(dir, "layers"))
	if !sub.CoversRepository(filepath.Join(dir, "layers", "spectral.py")) {
		t.Error("a project rooted in a subfolder scans its whole repository")
	}
	if got := sub.Importers(filepath.Join(dir, "layers", "spectral.py"), "mix"); len(got) != 1 || filepath.Base(got[0]) != "train.py" {
		t.Errorf("Importers(mix) from the subfolder's project = %v, want train.py", got)
	}
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"layers/spectral.py": "def mix(x):\n    return x\n"})
	if NewProject(filepath.Join(outside, "layers")).CoversRepository(filepath.Join(outside, "layers", "spectral.py")) {
		t.Error("a folder in no repository: its project cannot tell what lies outside it")
	}
}

// A class's step methods: those that run the backward outside a loop of
// their own, directly or through another method of the class; a method
// that loops over batches itself (fit) or runs no backward (sample) is
// not one.
func TestStepMethods(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"model.py": `class Trainer:
    def update(self, x, y):
        self.opt.zero_grad()
        self.loss(self.net(x), y).backward()
        self.opt.step()

    def train_step(self, x, y):
        return self.update(x.cuda(), y.cuda())

    def fit(self, loader):
        for x, y in loader:
            self.update(x, y)

    def sample(self, loader):
        for x, _ in loader:
            self.net(x)
`,
		"train.py": "from model import Trainer\n",
	})
	p := NewProject(dir)
	d := p.Def(filepath.Join(dir, "train.py"), "model", "Trainer")
	if d == nil || !slices.Equal(d.StepMethods, []string{"train_step", "update"}) {
		t.Fatalf("model.Trainer = %+v, want step methods train_step and update", d)
	}
	// fit loops over update() itself: it trains, as the step methods do;
	// sample() trains nothing.
	if !slices.Equal(d.TrainingMethods, []string{"fit", "train_step", "update"}) {
		t.Errorf("model.Trainer's training methods = %v, want fit, train_step and update", d.TrainingMethods)
	}
}

// A module that imports a name built at run time may reach any module:
// the project then cannot say that it covers every caller. A config
// loader that imports a temporary copy of a config file (mmcv's
// Config.fromfile, blind sample S37F's query2label SLConfig) reaches
// none of the project's modules and leaves the coverage alone.
func TestDynamicImportsAndConfigLoaders(t *testing.T) {
	for _, c := range []struct {
		name, loader string
		covers       bool
	}{
		{"registry", "import importlib\n\ndef build(name):\n    return importlib.import_module('models.' + name).Model()\n", false},
		{"config", "import tempfile\nfrom importlib import import_module\n\ndef fromfile(path):\n    with tempfile.TemporaryDirectory() as d:\n        mod = import_module(load_copy(path, d))\n    return mod\n", true},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			".git/HEAD":    "ref: refs/heads/main\n",
			"utils/cfg.py": c.loader,
			"train.py":     "from utils.cfg import fromfile\n",
			"helpers.py":   "def unused():\n    return 1\n",
		})
		if got := NewProject(dir).CoversRepository(filepath.Join(dir, "helpers.py")); got != c.covers {
			t.Errorf("%s: CoversRepository = %v, want %v", c.name, got, c.covers)
		}
	}
}

// TestLibraryChoiceReadsOnlyItsLoop: pytorch-template's writer picks
// tensorboard with import_module over a literal list of libraries, which
// reaches no project module; a second loop reusing the name over a
// config's plugins may import project modules, so the file's dynamic
// imports count again (the review of session 39's change).
func TestLibraryChoiceReadsOnlyItsLoop(t *testing.T) {
	writer := "import importlib\n\n\nclass Writer:\n    def __init__(self, log_dir):\n" +
		"        for module in [\"torch.utils.tensorboard\", \"tensorboardX\"]:\n            try:\n" +
		"                self.writer = importlib.import_module(module).SummaryWriter(log_dir)\n                break\n" +
		"            except ImportError:\n                pass\n"
	if !libraryChoice([]byte(writer)) {
		t.Errorf("the tensorboard choice alone: want a library choice")
	}
	plugins := writer + "\n\ndef load(config):\n    for module in config[\"plugins\"]:\n        importlib.import_module(module)\n"
	if libraryChoice([]byte(plugins)) {
		t.Errorf("a second loop importing plugins by the same name: want no library choice")
	}
}

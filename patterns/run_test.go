package patterns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// A rule that panics loses its own findings on that file and becomes one
// E998 finding; the rules before it keep theirs.
func TestRunIsolatesAPanickingRule(t *testing.T) {
	f := rewrite.Parse("t.py", []byte("import torch\nx = 1\n"))
	var out []rewrite.Finding
	run := func(r *Rule) {
		runIsolated(&Pass{Rule: r, File: f, Model: f.Model(), Env: &Env{}, out: &out, memo: map[string]any{}})
	}
	run(&Rule{Code: "TST001", Check: func(p *Pass) { p.Report(f.Root, "kept", nil) }})
	run(&Rule{Code: "TST002", Check: func(p *Pass) {
		p.Report(f.Root, "dropped", nil)
		var n *rewrite.Node
		_ = n.Type // nil dereference
	}})
	if len(out) != 2 || out[0].Message != "kept" || out[1].Code != InternalErrorCode ||
		!strings.Contains(out[1].Message, "internal error in rule TST002") {
		t.Fatalf("%+v", out)
	}
}

// One fact reached twice (a pinned loader assigned twice) is one finding.
func TestRunReportsIdenticalFindingsOnce(t *testing.T) {
	src := `import torch
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
loader = DataLoader(ds, batch_size=32, num_workers=4, pin_memory=True)
model = model.cuda()
for x, y in loader:
    x = x.cuda()
    out = model(x)
`
	f := rewrite.Parse("t.py", []byte(src))
	got := Run(f, Selection{Select: []string{"XFER002"}}, nil)
	if len(got) != 1 || got[0].Code != "XFER002" {
		t.Fatalf("want one XFER002, got %+v", got)
	}
	// Same place and code but another message stays: it says something else.
	in := []rewrite.Finding{
		{Code: "A1", Message: "m", Start: 3, End: 5},
		{Code: "A1", Message: "other", Start: 3, End: 5},
		{Code: "A1", Message: "m", Start: 3, End: 5},
		{Code: "A1", Message: "m", Start: 3, End: 6},
	}
	if out := dedupe(in); len(out) != 3 || out[1].Message != "other" || out[2].End != 6 {
		t.Errorf("dedupe: %+v", out)
	}
}

// writeTree writes text to name under dir, making its folders.
func writeTree(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// countInProject runs rule code on the file at path, with the project
// index of root, and counts its findings.
func countInProject(path, root, code string) int {
	src, _ := os.ReadFile(path)
	f := rewrite.Parse(path, src)
	defer f.Release()
	n := 0
	for _, fd := range Run(f, Selection{Select: []string{code}}, &Env{Versions: DefaultVersions, Project: workspace.NewProject(root)}) {
		if fd.Code == code {
			n++
		}
	}
	return n
}

// TestNeverBuiltClassIsSilent: a layer class that run.py imports but never
// builds (blind sample S18E's MTGNN layers) never runs, so XFER001 in its
// forward is dropped; built, or reachable by getattr or an exec'd import
// (SELFRec's model registry), it keeps the finding. So does a function
// imported beside it: torch.spmm in the importer is not its spmm (S18E's
// LightGCL).
func TestNeverBuiltClassIsSilent(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) { writeTree(t, dir, name, text) }
	write(".git/HEAD", "ref: refs/heads/main\n")
	write("layer.py", `import torch
from torch import nn


class Prop(nn.Module):
    def forward(self, x):
        mask = torch.eye(x.size(0)).to(x.device)
        return x @ mask


class Used(nn.Module):
    def forward(self, x):
        return x.relu()


def spmm(sp, emb):
    ones = torch.ones(4, 4).to(emb.device)
    return sp @ emb @ ones
`)
	run := func(text string) int {
		write("run.py", text)
		return countInProject(filepath.Join(dir, "layer.py"), dir, "XFER001")
	}
	const head = "import torch\nfrom layer import (\n    Prop,\n    Used,\n    spmm,\n)\n\nnet = Used().cuda()\nz = torch.spmm(net, net)\n"
	if n := run(head + "for _ in range(10):\n    net(torch.ones(4, 4, device=\"cuda\"))\n"); n != 0 {
		t.Errorf("Prop imported, never built: %d XFER001 findings, want 0", n)
	}
	if n := run(head + "for _ in range(10):\n    z = spmm(z, z)\n"); n != 1 {
		t.Errorf("spmm called (torch.spmm is not it): %d XFER001 findings, want 1", n)
	}
	if n := run(head + "prop = Prop().cuda()\n"); n != 1 {
		t.Errorf("Prop built: %d XFER001 findings, want 1", n)
	}
	if n := run(head + "import layer\nnet = getattr(layer, \"Pr\" + \"op\")()\n"); n != 2 {
		t.Errorf("names reached by getattr: %d XFER001 findings, want 2 (Prop's and spmm's)", n)
	}
	if n := run(head + "exec(\"from layer import \" + \"Prop\")\n"); n != 1 {
		t.Errorf("a class imported by exec: %d XFER001 findings, want 1", n)
	}
}

// TestUncalledFunctionIsSilent: a train() copied into utils.py, which the
// project imports only get_filter from, never runs, so its findings are
// dropped, but only inside a repository (the scan for its callers starts
// at the repository's top, and reads notebooks' code cells), and until
// something calls it.
func TestUncalledFunctionIsSilent(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"layers/utils.py": "import torch\n\n\ndef get_filter(n):\n    return torch.ones(n)\n\n\n" +
			"def train(model, loader, optimizer):\n    total = 0.0\n    for x, y in loader:\n        optimizer.zero_grad()\n" +
			"        loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()\n        loss.backward()\n        optimizer.step()\n        total += loss.item()\n    return total\n",
		"model.py": "from layers.utils import get_filter\n\nfilters = get_filter(8)\n",
	}
	write := func(name, text string) { writeTree(t, dir, name, text) }
	for name, text := range files {
		write(name, text)
	}
	path := filepath.Join(dir, "layers", "utils.py")
	sync002 := func(root string) int { return countInProject(path, root, "SYNC002") }
	if n := sync002(dir); n != 0 {
		t.Errorf("the repository checked whole: %d SYNC002 findings in a train() nothing calls, want 0", n)
	}
	// A subfolder checked: the scan for callers starts at the top of its
	// repository (blind sample S26J's mTAN, checked as src/*.py).
	if n := sync002(filepath.Join(dir, "layers")); n != 0 {
		t.Errorf("a subfolder of the repository checked: %d SYNC002 findings, want 0", n)
	}
	// Notebooks: their code cells are importers like any module.
	notebook := func(cells string) {
		write("demo.ipynb", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`+cells+`]}`)
	}
	notebook(`{"cell_type": "code", "metadata": {}, "source": ["from layers.utils import *\n", "# train(model) once the data is ready\n", "print('train')"]},
		{"cell_type": "markdown", "metadata": {}, "source": ["call train(model, loader, opt)"]}`)
	if n := sync002(dir); n != 0 {
		t.Errorf("a notebook that names train() only in a comment, a string and markdown: %d SYNC002 findings, want 0", n)
	}
	notebook(`{"cell_type": "code", "metadata": {}, "source": ["from layers.utils import train\n", "train(model, loader, opt)"]}`)
	if n := sync002(dir); n != 1 {
		t.Errorf("a notebook that calls train(): %d SYNC002 findings, want 1", n)
	}
	write("demo.ipynb", `{"cells": [`)
	if n := sync002(dir); n != 1 {
		t.Errorf("a notebook gpuopt cannot read: %d SYNC002 findings, want 1 (it may call train())", n)
	}
	if err := os.Remove(filepath.Join(dir, "demo.ipynb")); err != nil {
		t.Fatal(err)
	}
	// Outside a repository a checked folder may be part of a larger
	// project: its functions keep their findings.
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	if n := sync002(dir); n != 1 {
		t.Errorf("no repository around the folder: %d SYNC002 findings, want 1", n)
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	// An importer that calls a model's .eval(), picks a class of another
	// module with getattr or reads vars(args) reaches no name of this
	// module by a string: train() is still never called (blind samples
	// S26B's CE-GZSL and S26J's BRITS, whose unused code kept its
	// findings).
	write("evaluate.py", "import layers.utils as utils\nimport models\n\n\ndef run(model, args):\n    model.eval()\n    net = getattr(models, args.model)(**vars(args))\n    return utils.get_filter(4)\n")
	if n := sync002(dir); n != 0 {
		t.Errorf("an importer calling model.eval(): %d SYNC002 findings, want 0", n)
	}
	write("run.py", "from layers.utils import train\n\ntrain(None, [], None)\n")
	if n := sync002(dir); n != 1 {
		t.Errorf("train() called by run.py: %d SYNC002 findings, want 1", n)
	}
	// Called under another name (`import ... as`): still called.
	write("run.py", "from layers.utils import train as fit\n\nfit(None, [], None)\n")
	if n := sync002(dir); n != 1 {
		t.Errorf("train() imported as fit and called: %d SYNC002 findings, want 1", n)
	}
}

// TestCalledOnlyByUncalledFunctionIsSilent: a training function whose only
// caller in its module is itself called by nothing never runs either
// (blind sample S29C's IDM: train_edc, reached only from
// evaluate_synset_edc); once something calls that caller, it runs.
func TestCalledOnlyByUncalledFunctionIsSilent(t *testing.T) {
	dir := t.TempDir()
	train := "def train(model, loader, optimizer):\n    total = 0.0\n    for x, y in loader:\n        optimizer.zero_grad()\n" +
		"        loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()\n        loss.backward()\n        optimizer.step()\n        total += loss.item()\n    return total\n"
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "utils.py", "import torch\n\n\ndef get_filter(n):\n    return torch.ones(n)\n\n\n"+train+
		"\n\ndef evaluate_edc(model, loader, optimizer):\n    return train(model, loader, optimizer)\n\n\n"+
		"def ping(n):\n    return pong(n - 1) if n else 0\n\n\ndef pong(n):\n    return ping(n)\n")
	writeTree(t, dir, "main.py", "from utils import get_filter\n\nfilters = get_filter(8)\n")
	path := filepath.Join(dir, "utils.py")
	if n := countInProject(path, dir, "SYNC002"); n != 0 {
		t.Errorf("train() called only by evaluate_edc(), which nothing calls: %d SYNC002 findings, want 0", n)
	}
	writeTree(t, dir, "main.py", "from utils import get_filter, evaluate_edc\n\nfilters = get_filter(8)\nevaluate_edc(None, [], None)\n")
	if n := countInProject(path, dir, "SYNC002"); n != 1 {
		t.Errorf("evaluate_edc() called by main.py: %d SYNC002 findings in train(), want 1", n)
	}
}

// TestReexportedUncalledFunctionIsSilent: a package's __init__.py that
// star-imports its train_utils module re-exports train() to whoever
// imports the package; in an application repository (no setup.py or
// pyproject.toml) where no module does, train() never runs (blind sample
// S39D's COVIDNet, whose main.py uses a Trainer class instead). A
// pytorch-template logger that picks tensorboard by import_module over a
// literal list of libraries reaches no project module. In a distributed
// package, or once a module imports train from the package, it runs.
func TestReexportedUncalledFunctionIsSilent(t *testing.T) {
	dir := t.TempDir()
	train := "def train(model, loader, optimizer):\n    total = 0.0\n    for x, y in loader:\n        optimizer.zero_grad()\n" +
		"        loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()\n        loss.backward()\n        optimizer.step()\n        total += loss.item()\n    return total\n"
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "trainer/__init__.py", "from .train_utils import *\n")
	writeTree(t, dir, "trainer/train_utils.py", "import torch\n\n\ndef select_dataset(n):\n    return torch.ones(n)\n\n\n"+train)
	writeTree(t, dir, "main.py", "from trainer.train_utils import select_dataset\n\ndata = select_dataset(8)\n")
	writeTree(t, dir, "logger/visualization.py", "import importlib\n\n\nclass Writer:\n    def __init__(self, log_dir):\n"+
		"        for module in [\"torch.utils.tensorboard\", \"tensorboardX\"]:\n            try:\n"+
		"                self.writer = importlib.import_module(module).SummaryWriter(log_dir)\n                break\n"+
		"            except ImportError:\n                pass\n")
	path := filepath.Join(dir, "trainer", "train_utils.py")
	if n := countInProject(path, dir, "SYNC002"); n != 0 {
		t.Errorf("train() re-exported by trainer/__init__.py to no one: %d SYNC002 findings, want 0", n)
	}
	writeTree(t, dir, "setup.py", "from setuptools import setup\n\nsetup(name='covidnet')\n")
	if n := countInProject(path, dir, "SYNC002"); n != 1 {
		t.Errorf("the same package distributed (setup.py): %d SYNC002 findings, want 1 (users may import train)", n)
	}
	if err := os.Remove(filepath.Join(dir, "setup.py")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, "logger/visualization.py", "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n")
	if n := countInProject(path, dir, "SYNC002"); n != 1 {
		t.Errorf("a module importing modules by computed names: %d SYNC002 findings, want 1 (it may reach train)", n)
	}
	writeTree(t, dir, "logger/visualization.py", "x = 1\n")
	writeTree(t, dir, "run.py", "from trainer import train\n\ntrain(None, [], None)\n")
	if n := countInProject(path, dir, "SYNC002"); n != 1 {
		t.Errorf("run.py calls train from the package: %d SYNC002 findings, want 1", n)
	}
}

// TestDecoratedUncalledFunctionIsSilent: an evaluation function under
// @torch.no_grad() that nothing in the project calls never runs (blind
// sample S39H's ViT classifier, whose per-batch .cpu() calls were
// reported); a decorator that may register it with a caller outside the
// project (a CLI command) keeps it live.
func TestDecoratedUncalledFunctionIsSilent(t *testing.T) {
	dir := t.TempDir()
	evaluate := func(decorator string) string {
		return "import numpy as np\nimport torch\nimport torch.nn as nn\nfrom tqdm import tqdm\n\n\n" + decorator +
			"\ndef evaluate_model(model: nn.Module, loader: torch.utils.data.DataLoader, device: torch.device):\n    model.eval()\n    preds = []\n" +
			"    for batch in tqdm(loader):\n        outputs = model(batch[\"image\"].to(device))\n        _, predicted = outputs.max(1)\n" +
			"        preds.extend(predicted.cpu().numpy())\n    return np.array(preds)\n"
	}
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "main.py", "from models.train import train_model\n\ntrain_model()\n")
	writeTree(t, dir, "models/train.py", "def train_model():\n    return None\n")
	writeTree(t, dir, "models/evaluate.py", evaluate("@torch.no_grad()"))
	path := filepath.Join(dir, "models", "evaluate.py")
	if n := countInProject(path, dir, "SYNC001"); n != 0 {
		t.Errorf("an uncalled @torch.no_grad() evaluation: %d SYNC001 findings, want 0", n)
	}
	writeTree(t, dir, "models/evaluate.py", evaluate("@app.command()"))
	if n := countInProject(path, dir, "SYNC001"); n != 1 {
		t.Errorf("an evaluation registered as a CLI command: %d SYNC001 findings, want 1", n)
	}
}

// TestReexportedUnderAliasIsLive: a package that re-exports train() under
// another name (`from .train_utils import train as run_training`) hands
// it to callers who use the alias: it runs, and its findings stay.
func TestReexportedUnderAliasIsLive(t *testing.T) {
	dir := t.TempDir()
	train := "import torch\n\n\ndef train(model, loader, optimizer):\n    total = 0.0\n    for x, y in loader:\n        optimizer.zero_grad()\n" +
		"        loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()\n        loss.backward()\n        optimizer.step()\n        total += loss.item()\n    return total\n"
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "trainer/__init__.py", "from .train_utils import train as run_training\n")
	writeTree(t, dir, "trainer/train_utils.py", train)
	writeTree(t, dir, "main.py", "from trainer import run_training\n\nrun_training(None, [], None)\n")
	if n := countInProject(filepath.Join(dir, "trainer", "train_utils.py"), dir, "SYNC002"); n != 1 {
		t.Errorf("train() re-exported as run_training and called: %d SYNC002 findings, want 1", n)
	}
}

// TestTorchUtilsImportIsNotTheProjectsUtils: `from torch.utils.data
// import DataLoader` names torch's module, not the project's utils.py,
// whose torch.compile therefore says nothing of this script's model.
func TestTorchUtilsImportIsNotTheProjectsUtils(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "utils.py", "import torch\n\n\ndef maybe_compile(m):\n    return torch.compile(m)\n")
	writeTree(t, dir, "train.py", "import torch\nimport torchvision\nfrom torch.utils.data import DataLoader\n\n"+
		"model = torchvision.models.resnet50().cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1, fused=True)\n\n\n"+
		"def train(data):\n    for x, y in DataLoader(data, batch_size=64, num_workers=8, pin_memory=True):\n"+
		"        loss = torch.nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))\n"+
		"        opt.zero_grad()\n        loss.backward()\n        opt.step()\n")
	if n := countInProject(filepath.Join(dir, "train.py"), dir, "OPT004"); n != 1 {
		t.Errorf("train.py imports torch.utils.data, not utils.py: %d OPT004 findings, want 1", n)
	}
	writeTree(t, dir, "train.py", "from utils import maybe_compile\n"+string(mustRead(t, filepath.Join(dir, "train.py"))))
	if n := countInProject(filepath.Join(dir, "train.py"), dir, "OPT004"); n != 0 {
		t.Errorf("train.py imports utils.py, which compiles: %d OPT004 findings, want 0", n)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package patterns

import (
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

func TestSelection(t *testing.T) {
	cases := []struct {
		sel  Selection
		code string
		want bool
	}{
		{Selection{}, "XGB001", true},
		{Selection{Select: []string{"XGB"}}, "XGB001", true},
		{Selection{Select: []string{"XGB"}}, "AMP001", false},
		{Selection{Select: []string{"XGB"}, Ignore: []string{"XGB001"}}, "XGB001", false},
		{Selection{Select: []string{"XGB001"}, Ignore: []string{"XGB"}}, "XGB001", true},
		{Selection{Ignore: []string{"xgb00"}}, "XGB002", false},
		{Selection{Select: []string{"ALL"}}, "AMP001", true},
		// MEM005 is opt-in: only its full code turns it on.
		{Selection{}, "MEM005", false},
		{Selection{Select: []string{"ALL"}}, "MEM005", false},
		{Selection{Select: []string{"MEM"}}, "MEM005", false},
		{Selection{Select: []string{"mem005"}}, "MEM005", true},
		{Selection{Select: []string{"ALL", "MEM005"}}, "MEM005", true},
		{Selection{Select: []string{"ALL", "MEM005"}}, "AMP001", true},
		{Selection{Select: []string{"MEM005"}, Ignore: []string{"MEM"}}, "MEM005", true},
		{Selection{Select: []string{"ALL", "MEM005"}, Ignore: []string{"MEM005"}}, "MEM005", false},
	}
	for _, c := range cases {
		if got := c.sel.Enabled(c.code); got != c.want {
			t.Errorf("%+v.Enabled(%s) = %v, want %v", c.sel, c.code, got, c.want)
		}
	}
	if err := (Selection{Select: []string{"NOPE"}}).Validate(); err == nil {
		t.Error("unknown prefix accepted")
	}
}

func TestSuppressionComments(t *testing.T) {
	src := `import xgboost as xgb
a = {"tree_method": "gpu_hist"}  # gpuopt: ignore
b = {"tree_method": "gpu_hist"}  # gpuopt: ignore[XGB002]
c = {"tree_method": "gpu_hist"}  # gpuopt: ignore[XGB001]
d = {"tree_method": "gpu_hist"}  # noqa: XGB002
e = {"tree_method": "gpu_hist"}  # noqa
f = {"tree_method": "gpu_hist", "x": "# noqa"}
g = {"tree_method": "gpu_hist"}  # NOQA: xgb
`
	file := rewrite.Parse("t.py", []byte(src))
	var lines []int
	for _, fd := range Run(file, Selection{Select: []string{"XGB002"}}, nil) {
		lines = append(lines, file.Src.LineOf(fd.Start)+1)
	}
	if len(lines) != 2 || lines[0] != 4 || lines[1] != 7 {
		t.Errorf("findings on lines %v, want [4 7] (wrong code suppressed nothing; '#' in a string is no comment)", lines)
	}
}

func TestPinnedVersions(t *testing.T) {
	v := PinnedVersions("numpy\ntorch==1.13.1+cu117\nxgboost<2.0  # old\n")
	if v.Torch != (Version{1, 13}) || v.XGBoost != (Version{1, 99}) {
		t.Errorf("got %+v", v)
	}
	// A listing of versions separated by a space (blind sample WW's
	// `torch 0.4.1`, where fused=True raised TypeError); torchvision's
	// line is not torch's.
	if v := PinnedVersions("numpy 1.14.3\ntorchvision 0.2.1\ntorch 0.4.1\n"); v.Torch != (Version{0, 4}) {
		t.Errorf("space-separated pin: got %+v", v)
	}
	if v := PinnedVersions("torchvision 0.2.1\n"); v.Torch != DefaultVersions.Torch {
		t.Errorf("torchvision read as torch: got %+v", v)
	}
	// conda environment files: `- pytorch=1.8.1`, a build string after a
	// second `=`, pip's list inside; poetry's `torch = "^1.13"`.
	v = PinnedVersions("dependencies:\n  - pytorch=1.8.1\n  - py-xgboost=1.5.1=py39_0\n  - torchvision=0.9\n")
	if v.Torch != (Version{1, 8}) || v.XGBoost != (Version{1, 5}) {
		t.Errorf("conda: got %+v", v)
	}
	if v := PinnedVersions("[tool.poetry.dependencies]\ntorch = \"^1.13\"\npytorch-lightning = \"1.5\"\n"); v.Torch != (Version{1, 13}) {
		t.Errorf("poetry: got %+v", v)
	}
	// Lightning's two package names, and its `lightning-bolts` neighbour.
	if v := PinnedVersions("pytorch-lightning==1.9.4\ntorch==2.0.1\n"); v.Lightning != (Version{1, 9}) || v.Torch != (Version{2, 0}) {
		t.Errorf("pytorch-lightning: got %+v", v)
	}
	if v := PinnedVersions("lightning-bolts==0.7.0\nlightning>=2.1,<2.3\n"); v.Lightning != (Version{2, 2}) {
		t.Errorf("lightning: got %+v", v)
	}
	if v := PinnedVersions("[tool.poetry.dependencies]\npytorch-lightning = \"1.5\"\n"); v.Lightning != (Version{1, 5}) || v.Torch != DefaultVersions.Torch {
		t.Errorf("poetry lightning: got %+v", v)
	}
	// poetry ranges: the upper bound decides (torch <1.13 has no torch.compile).
	if v := PinnedVersions("[tool.poetry.dependencies]\ntorch = \">=1.10.1,<1.13\"\nxgboost = { version = \"1.7.6\" }\n"); v.Torch != (Version{1, 12}) || v.XGBoost != (Version{1, 7}) {
		t.Errorf("poetry ranges: got %+v", v)
	}
	// A conda channel before the package: `- pytorch::pytorch=1.5.0=<build>`.
	if v := PinnedVersions("dependencies:\n  - pytorch::pytorch=1.5.0=py3.7_cuda10.2.89_cudnn7.6.5_0\n  - conda-forge::xgboost=1.0.2\n"); v.Torch != (Version{1, 5}) || v.XGBoost != (Version{1, 0}) {
		t.Errorf("conda channels: got %+v", v)
	}
	// A direct reference to a wheel (blind sample S18H's NBME solution,
	// where set_float32_matmul_precision was written for torch 1.11).
	if v := PinnedVersions("numpy==1.21\ntorch @ https://download.pytorch.org/whl/cu113/torch-1.11.0%2Bcu113-cp38-cp38-linux_x86_64.whl\n"); v.Torch != (Version{1, 11}) {
		t.Errorf("direct wheel reference: got %+v", v)
	}
	if v := PinnedVersions("torchvision @ https://download.pytorch.org/whl/cu113/torchvision-0.12.0%2Bcu113-cp38-cp38-linux_x86_64.whl\n"); v.Torch != DefaultVersions.Torch {
		t.Errorf("torchvision's wheel read as torch: got %+v", v)
	}
	// A Dockerfile: the PyTorch base image's tag (blind sample S17D's
	// Mario PPO on pytorch/pytorch:1.5.1), or a pip install in a RUN line.
	if v := PinnedVersions(DockerfileImagePin("FROM pytorch/pytorch:1.5.1-cuda10.1-cudnn7-devel\nRUN apt-get update\n")); v.Torch != (Version{1, 5}) {
		t.Errorf("Dockerfile base image: got %+v", v)
	}
	if v := PinnedVersions(DockerfilePins("FROM python:3.8\nRUN pip install numpy torch==1.7.1 xgboost==1.3.0\n")); v.Torch != (Version{1, 7}) || v.XGBoost != (Version{1, 3}) {
		t.Errorf("Dockerfile pip install: got %+v", v)
	}
	// A pip range: the upper bound is what runs, the lower bound the
	// oldest the project supports (blind sample S21F's `torch>=1.12.0`).
	if v := PinnedVersions("torch>=1.10,<1.13\n"); v.Torch != (Version{1, 12}) || v.TorchFloor != (Version{1, 10}) {
		t.Errorf("pip range: got %+v", v)
	}
	if v := PinnedVersions("torch >= 1.12.0\n"); v.Torch != DefaultVersions.Torch || !v.TorchFloor.Below(2, 3) || v.TorchFloor.Below(1, 12) {
		t.Errorf("floor: got %+v", v)
	}
	if d := PinnedVersions(""); d != DefaultVersions {
		t.Errorf("defaults: %+v", d)
	}
}

// setup.py pins its versions in string literals, several to a line.
func TestQuotedRequirements(t *testing.T) {
	setup := "from setuptools import setup\nsetup(name='x', install_requires=['numpy>=1.20', \"xgboost==1.5.2\", 'torch<2'])\n"
	v := PinnedVersions(QuotedRequirements(setup))
	if v.XGBoost != (Version{1, 5}) || v.Torch != (Version{1, 99}) {
		t.Errorf("got %+v", v)
	}
}

// pyproject.toml's PEP 621 lists and extras spell pins inside arrays;
// prose that mentions a library is not a pin.
func TestQuotedPins(t *testing.T) {
	pyproject := "[project]\ndescription = \"torch 0.4 port of a model\"\ndependencies = [\"numpy>=1.20\"]\n" +
		"[project.optional-dependencies]\ncpu   = [\"torch==1.10.*\"]\ncuda = ['torch==1.10.*', \"xgboost<1.6\"]\n"
	v := PinnedVersions(pyproject + QuotedPins(pyproject))
	if v.Torch != (Version{1, 10}) || v.XGBoost != (Version{1, 5}) {
		t.Errorf("got %+v", v)
	}
	if got := QuotedPins("[project]\ndescription = \"torch 0.4 port\"\n"); got != "" {
		t.Errorf("prose read as a pin: %q", got)
	}
}

// uv.lock and poetry.lock list each resolved package's version after its
// name; other packages' versions are not torch's.
func TestLockedVersions(t *testing.T) {
	lock := "[[package]]\nname = \"numpy\"\nversion = \"1.21.0\"\n\n[[package]]\nname = \"torch\"\nversion = \"1.10.2\"\n" +
		"source = { registry = \"https://download.pytorch.org/whl/cpu\" }\n[[package]]\nname = \"torchvision\"\nversion = \"0.11.3\"\n"
	if v := PinnedVersions(LockedVersions(lock)); v.Torch != (Version{1, 10}) || v.XGBoost != DefaultVersions.XGBoost {
		t.Errorf("got %+v from %q", v, LockedVersions(lock))
	}
}

// A Dockerfile pins through pip's arguments and wheel URLs; apt packages
// and torchvision's wheel are not torch's.
func TestDockerfilePins(t *testing.T) {
	docker := "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\nRUN apt-get install -y python3-torch-doc \\\n  && rm -rf /var/lib/apt/lists/*\n" +
		"RUN pip3 install https://download.pytorch.org/whl/cu100/torch-1.1.0-cp36-cp36m-linux_x86_64.whl \\\n" +
		"  && pip3 install https://download.pytorch.org/whl/cu100/torchvision-0.3.0-cp36-cp36m-linux_x86_64.whl\n" +
		"RUN /opt/conda/envs/gbdt/bin/python -m pip install xgboost==1.5.0 \"numpy<2\"\n"
	if v := PinnedVersions(DockerfilePins(docker)); v.Torch != (Version{1, 1}) || v.XGBoost != (Version{1, 5}) {
		t.Errorf("got %+v from %q", v, DockerfilePins(docker))
	}
	if got := DockerfilePins("FROM pytorch/pytorch:latest\nRUN pip install torchvision==0.15.0\n"); got != "" {
		t.Errorf("torchvision read as torch: %q", got)
	}
	// NVIDIA's containers are tagged by month (blind sample S38AK: 22.03
	// shipped torch 1.12.0a0, read as 1.11; S38AN: 21.03, torch 1.9.0a0).
	for tag, want := range map[string]Version{"22.03-py3": {1, 11}, "21.03-py3": {1, 8}, "24.05-py3": {2, 2}, "23.03-py3": {1, 13}} {
		if v := PinnedVersions(DockerfileImagePin("FROM nvcr.io/nvidia/pytorch:" + tag + "\n")); v.Torch != want {
			t.Errorf("nvcr.io/nvidia/pytorch:%s read as torch %v, want %v", tag, v.Torch, want)
		}
	}
}

func TestRelevant(t *testing.T) {
	if Relevant([]byte("import os\nprint('torch')\n")) {
		t.Error("a file mentioning torch only in a string is not relevant")
	}
	if !Relevant([]byte("import os, torch\n")) || !Relevant([]byte("from xgboost import DMatrix\n")) {
		t.Error("imports not recognised")
	}
	// A byte order mark before the first line's import (issue 16): the
	// file used to be skipped as importing nothing.
	if !Relevant([]byte("\ufeffimport torch\nx = torch.zeros(3).cuda()\n")) {
		t.Error("an import after a byte order mark not recognised")
	}
}

// A README's install commands pin torch with == (pip) or = (conda);
// floors, prose and other packages are not pins.
func TestReadmePins(t *testing.T) {
	for _, c := range []struct {
		readme string
		want   Version
	}{
		{"## Setup\n```\nconda create --name env opencv pytorch==1.0.0 torchvision==0.2.1 cuda100 python=3.7 -c pytorch\n```\n", Version{1, 0}},
		{"Dependencies:\n    torch==1.8.0\n    numpy\n", Version{1, 8}},
		{"`pip install torch==2.1.0`", Version{2, 1}},
		{"conda install pytorch=1.7 -c pytorch", Version{1, 7}},
		{"## Requirements\n- Python 3.8\n- PyTorch == 1.11.0\n", Version{1, 11}},
		{"## Dependencies\nPython 3.7\nPyTorch 1.7.0\n* torch 1.3.1\n", DefaultVersions.Torch},
		{"Requirements:\n* Python 3.6.9\n* torch 1.3.1\n* torchvision 0.4.2\n", Version{1, 3}},
		{"```\nclick 7.1.2\ndgl 0.6.0\nnumpy 1.19.5\ntorch 1.7.0\ntqdm 4.56.0\n```\n", Version{1, 7}},
		{"## PyTorch 2.0 support\nWe now run on PyTorch 2.0 and later.\n", DefaultVersions.Torch},
		{"Requires torch>=1.7 and PyTorch 1.11.0 or later.", DefaultVersions.Torch},
		{"pip install torchmetrics==0.11 torch-geometric", DefaultVersions.Torch},
		{`Pin it in pyproject: target-versions = { torch = "1.10" }, or "torch==1.10" in requirements.txt.`, DefaultVersions.Torch},
		{"pip install torch==1.13.1\n# or, for CUDA 12:\npip install torch==2.1.0\n", DefaultVersions.Torch},
		{"## Requirements\n- `torch == 1.11+cu11.5` (Not required, but recommended.)\n", Version{1, 11}},
	} {
		if got := PinnedVersions(ReadmePins(c.readme)).Torch; got != c.want {
			t.Errorf("PinnedVersions(ReadmePins(%q)).Torch = %v, want %v (%q)", c.readme, got, c.want, ReadmePins(c.readme))
		}
	}
}

// A torchvision pin names the torch release it was built for.
func TestTorchFromTorchvision(t *testing.T) {
	for reqs, want := range map[string]Version{
		"torchvision==0.5.0\n":       {1, 4},
		"numpy\ntorchvision==0.14.1": {1, 13},
		"- torchvision=0.15.2\n":     {2, 0},
		"torchvision==0.20.1\n":      {2, 5},
		"torchvision==0.2.1\n":       {1, 0},
		"torchvision>=0.8\n":         DefaultVersions.Torch,
		"numpy==1.2\n":               DefaultVersions.Torch,
	} {
		if got := PinnedVersions(reqs + "\n" + TorchFromTorchvision(reqs)).Torch; got != want {
			t.Errorf("torch from %q = %v, want %v", reqs, got, want)
		}
	}
}

func TestTorchFromToolchain(t *testing.T) {
	for reqs, want := range map[string]Version{
		"- python=3.6\n- pytorch\n- cudatoolkit=9.2\n": {1, 7},
		"- python=3.6\n- pytorch\n":                    {1, 10},
		"- python=3.7\n- cudatoolkit=10.1\n":           {1, 8},
		"- python=3.10\n- pytorch\n":                   DefaultVersions.Torch,
		"- cudatoolkit=11.3\n":                         DefaultVersions.Torch,
		"python==3.6\n":                                DefaultVersions.Torch, // a pip line, not conda's
	} {
		if got := PinnedVersions(reqs + "\n" + TorchFromToolchain(reqs)).Torch; got != want {
			t.Errorf("torch from %q = %v, want %v", reqs, got, want)
		}
	}
}

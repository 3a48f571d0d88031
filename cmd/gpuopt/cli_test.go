package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var gpuoptBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gpuopt-cli")
	if err != nil {
		panic(err)
	}
	gpuoptBin = filepath.Join(dir, "gpuopt")
	if out, err := exec.Command("go", "build", "-o", gpuoptBin, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run executes gpuopt in dir and returns stdout, stderr and the exit code.
func run(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(gpuoptBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GPUOPT_TARGET_GPU=")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const xgbSource = `import xgboost as xgb
params = {"tree_method": "gpu_hist", "max_depth": 6}  # keep me
X = [[1.0]]
dtrain = xgb.DMatrix(X, label=[1.0])
booster = xgb.train(params, dtrain, 10)
`

func TestCheckExitCodesAndText(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), xgbSource)
	write(t, filepath.Join(dir, "clean.py"), "import torch\nx = 1\n")
	out, _, code := run(t, dir, "", "check", "train.py")
	if code != 1 || !strings.Contains(out, "train.py:2:26: XGB002 [*] ") || !strings.Contains(out, "XGB001") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if out, _, code := run(t, dir, "", "check", "clean.py"); code != 0 || !strings.Contains(out, "All checks passed") {
		t.Errorf("clean file: exit %d\n%s", code, out)
	}
	if _, errOut, code := run(t, dir, "", "check", "missing.py"); code != 2 || !strings.Contains(errOut, "missing.py") {
		t.Errorf("missing file: exit %d, %s", code, errOut)
	}
	if _, errOut, code := run(t, dir, "", "check", "--select", "NOPE", "train.py"); code != 2 || !strings.Contains(errOut, "NOPE") {
		t.Errorf("bad selection: exit %d, %s", code, errOut)
	}
	if out, _, code := run(t, dir, "", "check", "--select", "XGB001", "train.py"); code != 1 || strings.Contains(out, "XGB002") {
		t.Errorf("--select: %s", out)
	}
	if out, _, code := run(t, dir, "", "check", "--ignore", "XGB", "train.py"); code != 0 {
		t.Errorf("--ignore XGB: exit %d\n%s", code, out)
	}
}

// TestOptInRuleNeedsItsCode runs MEM005, the opt-in rule, on a script
// with a small batch: silent by default and under a prefix, reported when
// --select names its code, beside the default rules with ALL.
func TestOptInRuleNeedsItsCode(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), `import torch
from torch.utils.data import DataLoader
model = torch.nn.Linear(4096, 4096).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = DataLoader(torch.randn(10000, 4096), batch_size=32, num_workers=8, pin_memory=True, persistent_workers=True)
for x in loader:
    loss = model(x.cuda(non_blocking=True)).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
`)
	for _, c := range []struct {
		sel  string
		want bool
	}{{"", false}, {"MEM", false}, {"ALL", false}, {"MEM005", true}, {"ALL,MEM005", true}} {
		args := []string{"check", "--target-gpu", "h100", "train.py"}
		if c.sel != "" {
			args = append(args, "--select", c.sel)
		}
		out, _, _ := run(t, dir, "", args...)
		if got := strings.Contains(out, "MEM005"); got != c.want {
			t.Errorf("--select %q: MEM005 reported %v, want %v\n%s", c.sel, got, c.want, out)
		}
		if c.sel == "ALL,MEM005" && !strings.Contains(out, "OPT001") {
			t.Errorf("--select ALL,MEM005 left out the default rules:\n%s", out)
		}
	}
}

func TestCheckJSONAndSARIF(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "train.py"), "# é😀\n"+xgbSource)
	out, _, _ := run(t, dir, "", "check", "--output-format", "json", "train.py")
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var xgb002 map[string]any
	for _, f := range findings {
		if f["code"] == "XGB002" {
			xgb002 = f
		}
	}
	if xgb002 == nil {
		t.Fatalf("no XGB002 in %s", out)
	}
	for k, want := range map[string]float64{"line": 3, "column": 26, "end_line": 3, "end_column": 36} {
		if xgb002[k] != want {
			t.Errorf("%s = %v, want %v", k, xgb002[k], want)
		}
	}
	fix := xgb002["fix"].(map[string]any)
	if fix["applicability"] != "safe" || len(fix["edits"].([]any)) != 2 {
		t.Errorf("fix: %v", fix)
	}
	out, _, _ = run(t, dir, "", "check", "--output-format", "sarif", "train.py")
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs[0].Results) < 2 {
		t.Errorf("sarif: %v %+v", err, sarif)
	}
	out, _, _ = run(t, dir, "", "check", "--output-format", "github", "train.py")
	if !strings.Contains(out, "::warning title=gpuopt (XGB002),file=train.py,line=3,col=26") {
		t.Errorf("github: %s", out)
	}
}

func TestFixDiffAppliesWithGit(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pkg", "train.py"), xgbSource)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	diff, _, code := run(t, dir, "", "fix", "--diff", "--unsafe-fixes", ".")
	if code != 1 || !strings.Contains(diff, "--- a/pkg/train.py") {
		t.Fatalf("exit %d diff:\n%s", code, diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "pkg", "train.py")); string(b) != xgbSource {
		t.Fatal("--diff wrote the file")
	}
	apply := exec.Command("git", "-C", dir, "apply", "-")
	apply.Stdin = strings.NewReader(diff)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v %s\n%s", err, out, diff)
	}
	viaGit, _ := os.ReadFile(filepath.Join(dir, "pkg", "train.py"))
	write(t, filepath.Join(dir, "pkg", "train.py"), xgbSource)
	os.Chmod(filepath.Join(dir, "pkg", "train.py"), 0o640)
	_, summary, _ := run(t, dir, "", "fix", "--unsafe-fixes", "pkg")
	direct, _ := os.ReadFile(filepath.Join(dir, "pkg", "train.py"))
	if string(direct) != string(viaGit) {
		t.Errorf("fix in place differs from the applied diff:\n%s\nvs\n%s", direct, viaGit)
	}
	if !strings.Contains(string(direct), "# keep me") || !strings.Contains(string(direct), "QuantileDMatrix") {
		t.Errorf("fixed file:\n%s", direct)
	}
	if st, _ := os.Stat(filepath.Join(dir, "pkg", "train.py")); st.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v", st.Mode())
	}
	if !strings.Contains(summary, "Fixed") {
		t.Errorf("summary: %s", summary)
	}
	// A second run changes nothing.
	if diff, _, _ := run(t, dir, "", "fix", "--diff", "--unsafe-fixes", "pkg"); diff != "" {
		t.Errorf("not idempotent:\n%s", diff)
	}
	py := exec.Command("python3", "-m", "py_compile", filepath.Join(dir, "pkg", "train.py"))
	if out, err := py.CombinedOutput(); err != nil {
		t.Errorf("fixed file does not compile: %s", out)
	}
}

func TestFixRefusesBadInputAndLosesNothing(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"syntax.py":   "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"\nif:\n",
		"binary.py":   "import xgboost\x00\x01",
		"latin1.py":   "import xgboost as xgb\n# caf\xe9\nparams = {\"tree_method\": \"gpu_hist\"}\n",
		"readonly.py": "import xgboost as xgb\nparams = {\"tree_method\": \"gpu_hist\"}\n",
	}
	for name, content := range cases {
		write(t, filepath.Join(dir, name), content)
	}
	os.Chmod(filepath.Join(dir, "readonly.py"), 0o444)
	os.Symlink(filepath.Join(dir, "readonly.py"), filepath.Join(dir, "link.py"))
	_, errOut, code := run(t, dir, "", "fix", ".")
	for name, content := range cases {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != content {
			t.Errorf("%s was changed", name)
		}
	}
	for _, want := range []string{"syntax.py: has a syntax error: not rewritten", "binary.py: binary file", "latin1.py: not valid UTF-8", "readonly.py: read-only file"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1 (findings remain; refusals are not I/O errors)", code)
	}
	out, _, _ := run(t, dir, "", "check", "syntax.py")
	if !strings.Contains(out, "E999") || !strings.Contains(out, "syntax error") {
		t.Errorf("syntax error not reported: %s", out)
	}
}

func TestStdinAndConfig(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"x\"\n\n[tool.gpuopt]\nignore = [\"XGB001\"]\nexclude = [\"skip_me/\"]\n")
	write(t, filepath.Join(dir, "src", "train.py"), xgbSource)
	write(t, filepath.Join(dir, "skip_me", "train.py"), xgbSource)
	write(t, filepath.Join(dir, "ignored", "train.py"), xgbSource)
	write(t, filepath.Join(dir, ".gitignore"), "ignored/\n")
	write(t, filepath.Join(dir, "venv", "pyvenv.cfg"), "home = /usr\n")
	write(t, filepath.Join(dir, "venv", "lib", "train.py"), xgbSource)
	out, _, _ := run(t, dir, "", "check", ".")
	if strings.Contains(out, "XGB001") || !strings.Contains(out, "src/train.py") ||
		strings.Contains(out, "skip_me") || strings.Contains(out, "ignored/") || strings.Contains(out, "venv") {
		t.Errorf("config/exclude/gitignore/venv not honoured:\n%s", out)
	}
	if out, _, _ := run(t, dir, "", "check", "--select", "XGB001", "."); !strings.Contains(out, "XGB001") {
		t.Errorf("flags must win over the config:\n%s", out)
	}
	fixed, _, code := run(t, dir, xgbSource, "fix", "-", "--stdin-filename", "src/train.py")
	// XGB001 is ignored by the config, so nothing remains: exit 0.
	if code != 0 || !strings.Contains(fixed, `"tree_method": "hist", "device": "cuda"`) {
		t.Errorf("stdin fix: exit %d\n%s", code, fixed)
	}
	out, _, code = run(t, dir, xgbSource, "check", "-", "--stdin-filename", "src/train.py")
	if code != 1 || !strings.Contains(out, "src/train.py:2:") {
		t.Errorf("stdin check: %s", out)
	}
}

func TestRuleDocs(t *testing.T) {
	out, _, code := run(t, ".", "", "rule", "XGB001")
	if code != 0 || !strings.Contains(out, "## Fix safety") || !strings.Contains(out, "ref=") {
		t.Errorf("rule XGB001: %d\n%s", code, out)
	}
	out, _, _ = run(t, ".", "", "rules")
	if !strings.Contains(out, "XGB002") || !strings.Contains(out, "safe") {
		t.Errorf("rules: %s", out)
	}
	if _, _, code := run(t, ".", "", "rule", "ZZZ999"); code != 2 {
		t.Errorf("unknown rule exit %d", code)
	}
}

func TestHWWithoutGPU(t *testing.T) {
	out, _, code := run(t, t.TempDir(), "", "hw", "--json")
	var p map[string]any
	if err := json.Unmarshal([]byte(out), &p); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	if p["source"] != "none" || !strings.Contains(p["message"].(string), "no NVIDIA GPU") {
		t.Errorf("profile: %s", out)
	}
	out, _, code = run(t, t.TempDir(), "", "hw", "--json", "--target-gpu", "rtx-4090")
	if err := json.Unmarshal([]byte(out), &p); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	target := p["target"].(map[string]any)
	if p["source"] != "target" || target["compute_major"] != 8.0 || target["compute_minor"] != 9.0 || target["memory_total_bytes"] != float64(24<<30) {
		t.Errorf("rtx-4090 profile: %s", out)
	}
}

func TestTargetGPUGatesRules(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.py"), "import xgboost as xgb\nclf = xgb.XGBClassifier(n_estimators=5)\nclf.fit(X, y)\n")
	out, _, _ := run(t, dir, "", "check", "--output-format", "json", "t.py")
	if !strings.Contains(out, `"applicability": "hint"`) || !strings.Contains(out, "no GPU detected") {
		t.Errorf("without a GPU XGB005 must be a hint that says so:\n%s", out)
	}
	out, _, _ = run(t, dir, "", "check", "--output-format", "json", "--target-gpu", "h100", "t.py")
	if !strings.Contains(out, `"applicability": "unsafe"`) || !strings.Contains(out, "NVIDIA H100") {
		t.Errorf("with an H100 target XGB005 fires with its fix and names the GPU:\n%s", out)
	}
}

// A fix in one module can enable one in another: the script's loader gets
// pinned workers (LOAD001), and then the copies in a sibling module's loop
// over that loader can be non-blocking (XFER002). One `gpuopt fix` applies
// both, so a second run changes nothing.
func TestFixReachesAFixedPointAcrossModules(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "predict.py"), `import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def predict(model, loader):
    model.eval()
    outs = []
    with torch.no_grad():
        for data in loader:
            imgs = data.to(DEVICE)
            outs.append(model(imgs).argmax(1))
    return outs
`)
	write(t, filepath.Join(dir, "run.py"), `import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from predict import predict

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    data = datasets.MNIST("data", download=True, transform=transforms.ToTensor())
    loader = DataLoader(data, batch_size=64)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10)).to(DEVICE)
    predict(model, loader)


if __name__ == "__main__":
    main()
`)
	_, stderr, _ := run(t, dir, "", "fix", "--unsafe-fixes", "--target-gpu", "h100", "--no-progress", ".")
	got, _ := os.ReadFile(filepath.Join(dir, "predict.py"))
	if !strings.Contains(string(got), "data.to(DEVICE, non_blocking=True)") {
		t.Fatalf("the sibling module's copy was not fixed in the same run:\n%s\n%s", got, stderr)
	}
	out, _, _ := run(t, dir, "", "fix", "--unsafe-fixes", "--target-gpu", "h100", "--no-progress", "--diff", ".")
	if strings.Contains(out, "+++") {
		t.Errorf("a second fix still changes files:\n%s", out)
	}
}

// Each file runs the versions pinned nearest to it: a repository checked
// from its parent directory, a file checked from a sub-folder, and a conda
// environment file all pin XGBoost 1.5 (no `device` parameter before 2.0,
// so XGB005 has nothing to say there), while a sibling repository without
// pins gets today's versions.
func TestVersionsPinnedNearestToEachFile(t *testing.T) {
	dir := t.TempDir()
	src := "import xgboost as xgb\nclf = xgb.XGBClassifier(n_estimators=5)\nclf.fit(X, y)\n"
	write(t, filepath.Join(dir, "old", "requirements.txt"), "xgboost==1.5.2\n")
	write(t, filepath.Join(dir, "old", "training", "fit.py"), src)
	write(t, filepath.Join(dir, "conda", "environment.yaml"), "name: ps\ndependencies:\n  - python=3.9\n  - xgboost=1.5.1=py39_0\n")
	write(t, filepath.Join(dir, "conda", "src", "fit.py"), src)
	// One conda file per stage, named for it, with a channel before the package.
	write(t, filepath.Join(dir, "staged", "xgboost_environment.yml"), "name: xgb\ndependencies:\n  - conda-forge::xgboost=1.0.2\n")
	write(t, filepath.Join(dir, "staged", "fit.py"), src)
	// A conda file named env.yml, the pin in its pip section.
	write(t, filepath.Join(dir, "envyml", "env.yml"), "name: moa\ndependencies:\n  - pip:\n    - xgboost==1.5.0\n")
	write(t, filepath.Join(dir, "envyml", "fit.py"), src)
	// A requirements folder (blind sample S18R's CORL pinned torch 1.11
	// in requirements/requirements.txt).
	write(t, filepath.Join(dir, "reqdir", "requirements", "requirements.txt"), "numpy\nxgboost==1.5.2\n")
	write(t, filepath.Join(dir, "reqdir", "algorithms", "fit.py"), src)
	write(t, filepath.Join(dir, "new", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "new", "fit.py"), src)
	for _, args := range [][]string{
		{"check", "--target-gpu", "h100", "--output-format", "concise", "."},
		{"check", "--target-gpu", "h100", "--output-format", "concise", "fit.py"},
	} {
		wd := dir
		if args[len(args)-1] == "fit.py" {
			wd = filepath.Join(dir, "old", "training")
		}
		out, _, _ := run(t, wd, "", args...)
		if strings.Contains(out, filepath.Join("old", "training", "fit.py")+":") || strings.Contains(out, filepath.Join("conda", "src", "fit.py")+":") ||
			strings.Contains(out, filepath.Join("staged", "fit.py")+":") || strings.Contains(out, filepath.Join("envyml", "fit.py")+":") ||
			strings.Contains(out, filepath.Join("reqdir", "algorithms", "fit.py")+":") ||
			wd != dir && strings.Contains(out, "XGB005") {
			t.Errorf("in %s, %v: a file under a 1.5 pin got XGBoost 2 advice:\n%s", wd, args, out)
		}
		if wd == dir && !strings.Contains(out, filepath.Join("new", "fit.py")+":2:7: XGB005") {
			t.Errorf("the unpinned repository must keep XGB005:\n%s", out)
		}
	}
}

// TestNoPathIsCurrentDirectory checks that `gpuopt check` without a path
// reports what `gpuopt check .` does, cross-module facts included: a
// module whose training another module sets cudnn.benchmark for (OPT003
// stays silent in both).
func TestNoPathIsCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "gan.py"), `import torch
import torch.nn as nn


class GAN:
    def __init__(self):
        self.net = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU()).cuda()
        self.opt = torch.optim.Adam(self.net.parameters(), fused=True)

    def train(self, loader):
        for epoch in range(10):
            for x in loader:
                loss = self.net(x.cuda()).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
`)
	write(t, filepath.Join(dir, "main.py"), `import torch

from gan import GAN

torch.backends.cudnn.benchmark = True
GAN().train([])
`)
	withDot, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "concise", "--no-progress", ".")
	without, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--output-format", "concise", "--no-progress")
	if withDot != without {
		t.Errorf("check without a path differs from check .:\n--- check .\n%s\n--- check\n%s", withDot, without)
	}
	if strings.Contains(without, "OPT003") {
		t.Errorf("OPT003 reported though main.py sets cudnn.benchmark:\n%s", without)
	}
}

// TestDockerImageTagPinsTorchOnlyAlone checks that a Dockerfile's
// official PyTorch image pins torch where nothing else names it (blind
// sample S17D's Mario PPO: fused=True under torch 1.5.1), and not where a
// requirements file asks for torch (DETR's `torch>=1.5.0` beside its 1.5
// image, a voice assistant's torch==1.7.1).
func TestDockerImageTagPinsTorchOnlyAlone(t *testing.T) {
	dir := t.TempDir()
	src := "import torch\nmodel = torch.nn.Linear(4096, 4096).cuda()\nopt = torch.optim.Adam(model.parameters())\nfor x in loader:\n    opt.zero_grad()\n    model(x.cuda()).sum().backward()\n    opt.step()\n"
	write(t, filepath.Join(dir, "image", "Dockerfile"), "FROM pytorch/pytorch:1.5.1-cuda10.1-cudnn7-devel\nRUN pip install gym\n")
	write(t, filepath.Join(dir, "image", "train.py"), src)
	write(t, filepath.Join(dir, "both", "Dockerfile"), "FROM pytorch/pytorch:1.5-cuda10.1-cudnn7-runtime\n")
	write(t, filepath.Join(dir, "both", "requirements.txt"), "torch>=1.5.0\ntorchvision>=0.6.0\n")
	write(t, filepath.Join(dir, "both", "train.py"), src)
	for _, c := range []struct {
		sub    string
		opt001 bool
	}{{"image", false}, {"both", true}} {
		out, _, _ := run(t, filepath.Join(dir, c.sub), "", "check", "--target-gpu", "h100", "--output-format", "concise", "train.py")
		if got := strings.Contains(out, "OPT001"); got != c.opt001 {
			t.Errorf("%s: OPT001 reported %v, want %v:\n%s", c.sub, got, c.opt001, out)
		}
	}
}

// A project without requirements pins torch in its README's install
// command, or through torchvision alone: fused=True (torch 1.13) is not
// offered there, while a README that names no exact pin, and a
// sub-package's README beside the root's requirements, leave the versions
// to the usual files (blind samples S35A and S35C).
func TestTorchPinnedByReadmeOrTorchvision(t *testing.T) {
	dir := t.TempDir()
	src := "import torch\nimport torch.nn as nn\nmodel = nn.Linear(4096, 4096).cuda()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n" +
		"for x, y in loader:\n    opt.zero_grad()\n    nn.functional.mse_loss(model(x.cuda()), y.cuda()).backward()\n    opt.step()\n"
	write(t, filepath.Join(dir, "readme", "README.md"), "# Setup\n\n```\nconda create -n env pytorch==1.0.0 torchvision==0.2.1 -c pytorch\n```\n")
	write(t, filepath.Join(dir, "readme", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "readme", "train.py"), src)
	write(t, filepath.Join(dir, "vision", "requirements.txt"), "numpy\ntorchvision==0.5.0\n")
	write(t, filepath.Join(dir, "vision", "train.py"), src)
	write(t, filepath.Join(dir, "prose", "README.md"), "Tested with PyTorch 1.7; any torch>=1.6 works.\n")
	write(t, filepath.Join(dir, "prose", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "prose", "train.py"), src)
	// A Dockerfile in a docker/ folder whose base image names torch 1.3
	// (blind sample S35Q's landmark retrieval).
	write(t, filepath.Join(dir, "docked", "docker", "Dockerfile"), "FROM pytorch/pytorch:1.3-cuda10.1-cudnn7-runtime\nRUN pip install albumentations==0.4.6\n")
	write(t, filepath.Join(dir, "docked", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "docked", "train.py"), src)
	// A requirements file named without the extension (blind sample
	// S36F's CDGNet, torch 1.9 in `Requirements`).
	write(t, filepath.Join(dir, "bare", "Requirements"), "opencv-python\ntorch==1.9.0\n")
	write(t, filepath.Join(dir, "bare", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "bare", "train.py"), src)
	// A conda environment naming pytorch without a version beside
	// python=3.6 and cudatoolkit=9.2 (blind sample S36G's SAC-AE): torch
	// 1.7 at the newest.
	write(t, filepath.Join(dir, "conda", "conda_env.yml"), "name: sac\ndependencies:\n  - python=3.6\n  - pytorch\n  - cudatoolkit=9.2\n")
	write(t, filepath.Join(dir, "conda", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "conda", "train.py"), src)
	// A requirements file in UTF-16 with a byte order mark, as
	// PowerShell's `pip freeze >` writes it, and one in a configs/
	// folder (blind sample S37O's fyp and VI-SVS).
	write(t, filepath.Join(dir, "utf16", "requirements.txt"), string([]byte{0xFF, 0xFE, 't', 0, 'o', 0, 'r', 0, 'c', 0, 'h', 0, '=', 0, '=', 0, '1', 0, '.', 0, '8', 0, '.', 0, '0', 0, '\r', 0, '\n', 0}))
	write(t, filepath.Join(dir, "utf16", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "utf16", "train.py"), src)
	write(t, filepath.Join(dir, "configs", "configs", "requirements.txt"), "librosa\ntorch==1.6.0\n")
	write(t, filepath.Join(dir, "configs", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "configs", "train.py"), src)
	write(t, filepath.Join(dir, "extras", "extras", "environment.yml"), "name: flaw\ndependencies:\n  - pytorch=1.10.1\n")
	write(t, filepath.Join(dir, "extras", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "extras", "train.py"), src)
	// A pip freeze saved under another name (blind sample S38AD's
	// NEMG-IQA, torch==1.4.0+cu100 in env.list.txt).
	write(t, filepath.Join(dir, "frozen", "env.list.txt"), "numpy==1.18.1\ntorch==1.4.0+cu100\ntorchvision==0.5.0+cu100\n")
	write(t, filepath.Join(dir, "frozen", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "frozen", "train.py"), src)
	// A pip install command as the requirements file, and a conda
	// explicit list of package URLs (blind sample S38AC's fall
	// detectors); a vendored sub-package whose setup.py pins no torch
	// takes the repository's.
	write(t, filepath.Join(dir, "command", "requirements.txt"), "pip3 install torch==1.1.0 torchvision==0.3.0")
	write(t, filepath.Join(dir, "command", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "command", "vendored", "setup.py"), "from setuptools import setup\nsetup(name='x', install_requires=['numpy'])\n")
	write(t, filepath.Join(dir, "command", "vendored", "train.py"), src)
	write(t, filepath.Join(dir, "explicit", "environment.txt"), "@EXPLICIT\nhttps://conda.anaconda.org/pytorch/linux-64/pytorch-1.2.0-py3.6_cuda10.0.130_cudnn7.6.2_0.tar.bz2\n")
	write(t, filepath.Join(dir, "explicit", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "explicit", "train.py"), src)
	write(t, filepath.Join(dir, "binder", "binder", "environment.yml"), "dependencies:\n  - pytorch==1.8.0\n")
	write(t, filepath.Join(dir, "binder", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "binder", "train.py"), src)
	// An install script whose pip command runs through pipenv over
	// continued lines (blind sample S39O's lung-nodule classifier).
	write(t, filepath.Join(dir, "script", "setup.sh"), "#!/bin/bash\npip install pipenv\nif [ \"$1\" = gpu ]; then\n    pipenv run pip install \\\n        torch==1.7.1+cu110 \\\n        torchvision==0.8.2+cu110 \\\n        -f https://download.pytorch.org/whl/torch_stable.html\nfi\n")
	write(t, filepath.Join(dir, "script", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "script", "train.py"), src)
	// A conda export in a requirements/ folder (blind sample S39AB's
	// SoilNet, pytorch=1.13.1 with its build string).
	write(t, filepath.Join(dir, "condadir", "requirements", "pytorch_reqs.yml"), "name: gpu\ndependencies:\n  - pytorch=1.13.1=py3.9_cuda11.7_cudnn8_0\n  - pytorch-cuda=11.7=h67b0de4_1\n")
	write(t, filepath.Join(dir, "condadir", ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "condadir", "train.py"), src)
	write(t, filepath.Join(dir, "sub", "requirements.txt"), "torch==1.2.0\n")
	write(t, filepath.Join(dir, "sub", "pkg", "README.md"), "Run `python train.py`; needs torch>=1.2.\n")
	write(t, filepath.Join(dir, "sub", "pkg", "train.py"), src)
	out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "OPT001", "--output-format", "concise", ".")
	// (sub/pkg: its README pins nothing, so the root's torch 1.2 holds.)
	for _, pinned := range []string{filepath.Join("readme", "train.py"), filepath.Join("vision", "train.py"), filepath.Join("sub", "pkg", "train.py"), filepath.Join("docked", "train.py"), filepath.Join("bare", "train.py"), filepath.Join("conda", "train.py"), filepath.Join("utf16", "train.py"), filepath.Join("configs", "train.py"), filepath.Join("extras", "train.py"), filepath.Join("frozen", "train.py"), filepath.Join("command", "vendored", "train.py"), filepath.Join("explicit", "train.py"), filepath.Join("binder", "train.py"), filepath.Join("script", "train.py"), filepath.Join("condadir", "train.py")} {
		if strings.Contains(out, pinned+":") {
			t.Errorf("%s runs an old torch, got fused=True advice:\n%s", pinned, out)
		}
	}
	if !strings.Contains(out, filepath.Join("prose", "train.py")+":") {
		t.Errorf("prose/train.py pins nothing, wanted OPT001:\n%s", out)
	}
}

// A method of a plain class that nothing in the repository calls runs
// never: its findings are dropped, those of the method main() calls are
// kept (blind sample S35F's CTRNext, whose Trainer.inference() is dead).
// Once another module calls it, it is reported again.
func TestUncalledMethodIsSilent(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "trainer.py"), `# A trainer class whose inference() nothing in the project calls (blind
# sample S35F's CTRNext): its per-batch host-built tensors never run, so
# only train()'s are reported.
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loader):
        self.model = model.cuda()
        self.loader = loader
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3, fused=True)

    def train(self, epochs):
        for _ in range(epochs):
            for x, y in self.loader:
                x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
                weights = torch.ones(y.shape[0]).cuda()
                loss = (nn.functional.cross_entropy(self.model(x), y, reduction="none") * weights).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()

    def inference(self):
        with torch.no_grad():
            for x, _ in self.loader:
                mask = torch.ones(x.shape[0]).cuda()
                print((self.model(x.cuda()).argmax(1) * mask).sum())


def main(model, loader):
    Trainer(model, loader).train(10)


if __name__ == "__main__":
    main(nn.Linear(8, 2), [])
`)
	out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "XFER001", "--output-format", "concise", ".")
	if !strings.Contains(out, "trainer.py:18:") || strings.Contains(out, "trainer.py:27:") {
		t.Errorf("want XFER001 in train() (line 18) and none in the uncalled inference() (line 27):\n%s", out)
	}
	write(t, filepath.Join(dir, "serve.py"), "from trainer import Trainer\n\nTrainer(None, []).inference()\n")
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--select", "XFER001", "--output-format", "concise", ".")
	if !strings.Contains(out, "trainer.py:27:") {
		t.Errorf("inference() is called by serve.py: want its XFER001:\n%s", out)
	}
}

// A module-level train() that nothing calls, in a script whose live loop
// names its phases "train" and "val" (blind sample S37N's defect
// classifier): the phase strings do not make train() reachable, so its
// findings are dropped, and the file's cudnn.benchmark finding moves to
// the live loop. A getattr of the name keeps it reachable.
func TestUncalledFunctionBesidePhaseNames(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	src := `import torch
import torch.nn as nn
import torchvision

model = torchvision.models.resnet18(num_classes=5).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, fused=True)


def train(loader, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def fit(loaders, epochs):
    for epoch in range(epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            for x, y in loaders[phase]:
                x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
                with torch.set_grad_enabled(phase == "train"):
                    loss = nn.functional.cross_entropy(model(x), y)
                if phase == "train":
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


if __name__ == "__main__":
    fit({"train": [], "val": []}, 10)
`
	write(t, filepath.Join(dir, "main.py"), src)
	out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "OPT003,AMP004", "--output-format", "concise", ".")
	if strings.Contains(out, "main.py:10:") || strings.Contains(out, "main.py:13:") || !strings.Contains(out, "main.py:20:5: OPT003") {
		t.Errorf("want no finding in the uncalled train() (lines 10-16) and OPT003 at fit()'s loop (line 20):\n%s", out)
	}
	write(t, filepath.Join(dir, "main.py"), src+"\ngetattr(__import__(\"main\"), \"train\")\n")
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--select", "OPT003,AMP004", "--output-format", "concise", ".")
	if !strings.Contains(out, "main.py:10:5: OPT003") {
		t.Errorf("train is named by getattr: want OPT003 at its loop (line 10):\n%s", out)
	}
}

// A method of an nn.Module subclass that nothing in the repository calls
// (an LSTM's init_hidden, blind sample S37AD) is dead code: nn.Module
// calls forward and its hooks, not it. Once the training script calls
// it, its host-built tensors are reported.
func TestUncalledModuleMethodIsSilent(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "model.py"), `import torch
import torch.nn as nn


class LyricsLSTM(nn.Module):
    def __init__(self, vocab, hidden=512):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state

    def init_hidden(self, batch):
        return (torch.zeros(1, batch, self.hidden).cuda(), torch.zeros(1, batch, self.hidden).cuda())
`)
	train := `import torch
from model import LyricsLSTM

model = LyricsLSTM(5000).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for x, y in []:
    x, y = x.cuda(), y.cuda()
    logits, _ = model(x)
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
`
	write(t, filepath.Join(dir, "train.py"), train)
	out, _, _ := run(t, dir, "", "check", "--target-gpu", "h100", "--select", "XFER001", "--output-format", "concise", ".")
	if strings.Contains(out, "model.py:18:") {
		t.Errorf("init_hidden() is called by nothing: want no XFER001 there:\n%s", out)
	}
	write(t, filepath.Join(dir, "train.py"), strings.Replace(train, "logits, _ = model(x)", "logits, _ = model(x, model.init_hidden(x.shape[0]))", 1))
	out, _, _ = run(t, dir, "", "check", "--target-gpu", "h100", "--select", "XFER001", "--output-format", "concise", ".")
	if !strings.Contains(out, "model.py:18:") {
		t.Errorf("init_hidden() is called every step: want its XFER001:\n%s", out)
	}
}

package patterns

import (
	"path/filepath"
	"testing"
)

// TestOPT006UncalledSwitchIsSilent: a helper that turns the debugging
// modes on is a switch kept for the run that hunts a NaN while nothing
// in the repository calls it; once the entry script calls it, both
// settings run on every training run and are reported.
func TestOPT006UncalledSwitchIsSilent(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeTree(t, dir, "debug.py", "import os\n\nimport torch\n\n\n"+
		"def enable_debugging():\n    torch.autograd.set_detect_anomaly(True)\n    os.environ[\"CUDA_LAUNCH_BLOCKING\"] = \"1\"\n\n\n"+
		"def train(model, x, opt):\n    for _ in range(100000):\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n")
	writeTree(t, dir, "main.py", "from debug import train\n\ntrain(None, None, None)\n")
	path := filepath.Join(dir, "debug.py")
	if n := countInProject(path, dir, "OPT006"); n != 0 {
		t.Errorf("enable_debugging() called by nothing: %d OPT006 findings, want 0", n)
	}
	writeTree(t, dir, "main.py", "from debug import enable_debugging, train\n\nenable_debugging()\ntrain(None, None, None)\n")
	if n := countInProject(path, dir, "OPT006"); n != 2 {
		t.Errorf("enable_debugging() called by main.py: %d OPT006 findings, want 2 (anomaly mode, launch blocking)", n)
	}
}

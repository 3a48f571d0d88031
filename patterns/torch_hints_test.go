package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// applyHint applies the code action of the only finding of code on src.
func applyHint(t *testing.T, code, src string, env *Env) string {
	t.Helper()
	f := rewrite.Parse("t.py", []byte(src))
	var fds []rewrite.Finding
	for _, fd := range Run(f, Selection{Select: []string{code}}, env) {
		if fd.Code == code {
			fds = append(fds, fd)
		}
	}
	if len(fds) != 1 || fds[0].Fix == nil {
		t.Fatalf("%s: want one finding with a code action, got %+v", code, fds)
	}
	out, err := rewrite.ApplyEdits(f.Src.Bytes, fds[0].Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if rewrite.Parse("t.py", out).HasSyntaxErrors() {
		t.Fatalf("%s: action breaks the file:\n%s", code, out)
	}
	return string(out)
}

func TestAMP004Action(t *testing.T) {
	env := &Env{Versions: DefaultVersions, GPU: GPU{Name: "H100", ComputeMajor: 9, Source: "target"}}
	src := "import torch\nfrom torch import nn\n\nmodel = nn.Linear(4096, 4096).cuda()\nopt = torch.optim.AdamW(model.parameters())\nfor step in range(10):\n    x = torch.randn(4, 4096, device=\"cuda\")\n    out = model(x)  # forward\n\n    loss = out.sum()\n    loss.backward()\n    opt.step()\n"
	want := "import torch\nfrom torch import nn\n\nmodel = nn.Linear(4096, 4096).cuda()\nopt = torch.optim.AdamW(model.parameters())\nfor step in range(10):\n    x = torch.randn(4, 4096, device=\"cuda\")\n    with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n        out = model(x)  # forward\n\n        loss = out.sum()\n    loss.backward()\n    opt.step()\n"
	if got := applyHint(t, "AMP004", src, env); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestOPT004NarrowSilent: the same script with 8-wide layers is narrow,
// where compiled steps ran slower (0.47-0.89×): no finding.
func TestOPT004NarrowSilent(t *testing.T) {
	src := "import torch\n\nmodel = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)).cuda()\nopt = torch.optim.AdamW(model.parameters())\nfor step in range(10):\n    model(torch.randn(4, 8, device=\"cuda\")).sum().backward()\n    opt.step()\n"
	f := rewrite.Parse("t.py", []byte(src))
	if fds := Run(f, Selection{Select: []string{"OPT004"}}, &Env{Versions: DefaultVersions}); len(fds) != 0 {
		t.Fatalf("want no finding on a narrow network, got %+v", fds)
	}
}

func TestOPT004Action(t *testing.T) {
	env := &Env{Versions: DefaultVersions}
	src := "import torch\n\nmodel = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 2)).cuda()\nopt = torch.optim.AdamW(model.parameters())\nfor step in range(100000):\n    model(torch.randn(4, 4096, device=\"cuda\")).sum().backward()\n    opt.step()\n"
	want := "import torch\n\nmodel = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 2)).cuda()\nmodel = torch.compile(model)\nopt = torch.optim.AdamW(model.parameters())\nfor step in range(100000):\n    model(torch.randn(4, 4096, device=\"cuda\")).sum().backward()\n    opt.step()\n"
	if got := applyHint(t, "OPT004", src, env); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestAMP001MessageFollowsThePin: below PyTorch 2.4 torch.cuda.amp.autocast
// is not deprecated yet, and the message says so instead of claiming it.
func TestAMP001MessageFollowsThePin(t *testing.T) {
	src := []byte("import torch\n\nwith torch.cuda.amp.autocast():\n    y = model(x)\n")
	for _, c := range []struct {
		torch Version
		want  string
	}{
		{Version{2, 0}, "deprecated from PyTorch 2.4 on (this project pins an older one)"},
		{Version{2, 4}, "torch.cuda.amp.autocast is deprecated: use"},
	} {
		f := rewrite.Parse("t.py", src)
		fds := Run(f, Selection{Select: []string{"AMP001"}}, &Env{Versions: Versions{Torch: c.torch, XGBoost: Version{2, 0}}})
		f.Release()
		if len(fds) != 1 || !strings.Contains(fds[0].Message, c.want) {
			t.Errorf("torch %v: got %v, want one AMP001 saying %q", c.torch, fds, c.want)
		}
	}
}

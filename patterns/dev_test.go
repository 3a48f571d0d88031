package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/rewrite"
)

// DEV001's code action, applied to whole scripts.
func TestDEV001Action(t *testing.T) {
	env := &Env{Versions: DefaultVersions}
	cases := []struct{ name, src, want string }{{
		name: "new device name, enumerate batch, weighted loss moved, plain loss not",
		src: `import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(8, 16384), torch.randint(0, 2, (8,))), batch_size=2)
model = nn.Linear(16384, 64)
weighted = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]))
plain = nn.CrossEntropyLoss(label_smoothing=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for step, (x, y) in enumerate(loader):
        # forward
        out = model(x)
        loss = weighted(out, y) + plain(out, y)
        loss.backward()
        opt.step()
        print(step, (out.argmax(1) == y).float().mean().item())
`,
		want: `import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

loader = DataLoader(TensorDataset(torch.randn(8, 16384), torch.randint(0, 2, (8,))), batch_size=2)
model = nn.Linear(16384, 64)
model.to(device)
weighted = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]))
weighted.to(device)
plain = nn.CrossEntropyLoss(label_smoothing=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for step, (x, y) in enumerate(loader):
        # forward
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = weighted(out, y) + plain(out, y)
        loss.backward()
        opt.step()
        print(step, (out.argmax(1) == y).float().mean().item())
`,
	}, {
		name: "a batch reshaped into another name moves too",
		src:  "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\nloader = DataLoader(TensorDataset(torch.randn(8, 128, 128), torch.randn(8, 64)), batch_size=2)\nmodel = torch.nn.Linear(16384, 64)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor images, target in loader:\n    flat = images.view(-1, 16384)\n    torch.nn.functional.mse_loss(model(flat), target).backward()\n    opt.step()\n",
		want: "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ndevice = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n\nloader = DataLoader(TensorDataset(torch.randn(8, 128, 128), torch.randn(8, 64)), batch_size=2)\nmodel = torch.nn.Linear(16384, 64)\nmodel.to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor images, target in loader:\n    images, target = images.to(device), target.to(device)\n    flat = images.view(-1, 16384)\n    torch.nn.functional.mse_loss(model(flat), target).backward()\n    opt.step()\n",
	}, {
		name: "dtype conversions of a batch are not moves",
		src:  "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\nloader = DataLoader(TensorDataset(torch.randn(8, 16384), torch.randn(8, 64)), batch_size=2)\nmodel = torch.nn.Linear(16384, 64)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x, y in loader:\n    torch.nn.functional.mse_loss(model(x.to(torch.float32)), y.to(x.dtype)).backward()\n    opt.step()\n",
		want: "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ndevice = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n\nloader = DataLoader(TensorDataset(torch.randn(8, 16384), torch.randn(8, 64)), batch_size=2)\nmodel = torch.nn.Linear(16384, 64)\nmodel.to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x, y in loader:\n    x, y = x.to(device), y.to(device)\n    torch.nn.functional.mse_loss(model(x.to(torch.float32)), y.to(x.dtype)).backward()\n    opt.step()\n",
	}, {
		name: "an unused CUDA device of the file is reused",
		src:  "import torch\n\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n\n\ndef main():\n\tloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 16384)), batch_size=2)\n\tmodel = torch.nn.Linear(16384, 64)\n\topt = torch.optim.SGD(model.parameters(), lr=0.1)\n\tfor (x,) in loader:\n\t\tmodel(x).sum().backward()\n\t\topt.step()\n",
		want: "import torch\n\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n\n\ndef main():\n\tloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 16384)), batch_size=2)\n\tmodel = torch.nn.Linear(16384, 64)\n\tmodel.to(device)\n\topt = torch.optim.SGD(model.parameters(), lr=0.1)\n\tfor (x,) in loader:\n\t\tx = x.to(device)\n\t\tmodel(x).sum().backward()\n\t\topt.step()\n",
	}, {
		name: "the name device is taken: another one, single quotes, CRLF",
		src:  "import torch as T\r\nfrom torch.utils.data import DataLoader\r\n\r\ndef report(device):\r\n    print('on', device)\r\n\r\nloader = DataLoader(T.utils.data.TensorDataset(T.randn(8, 16384), T.randn(8, 64)), batch_size=2)\r\nnet = T.nn.Linear(16384, 64)\r\nopt = T.optim.SGD(net.parameters(), lr=0.1)\r\nfor x, y, in loader:\r\n    T.nn.functional.mse_loss(net(x), y).backward()\r\n    opt.step()\r\n",
		want: "import torch as T\r\nfrom torch.utils.data import DataLoader\r\ntorch_device = T.device('cuda' if T.cuda.is_available() else 'cpu')\r\n\r\ndef report(device):\r\n    print('on', device)\r\n\r\nloader = DataLoader(T.utils.data.TensorDataset(T.randn(8, 16384), T.randn(8, 64)), batch_size=2)\r\nnet = T.nn.Linear(16384, 64)\r\nnet.to(torch_device)\r\nopt = T.optim.SGD(net.parameters(), lr=0.1)\r\nfor x, y, in loader:\r\n    x, y = x.to(torch_device), y.to(torch_device)\r\n    T.nn.functional.mse_loss(net(x), y).backward()\r\n    opt.step()\r\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := applyHint(t, "DEV001", c.src, env); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// Scripts DEV001 reports without a code action: moving the model would
// leave some tensor that meets it on the CPU.
func TestDEV001NoAction(t *testing.T) {
	head := "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\nloader = DataLoader(TensorDataset(torch.randn(8, 16384), torch.randn(8, 64)), batch_size=2)\nmodel = torch.nn.Linear(16384, 64)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
	loop := "for x, y in loader:\n    torch.nn.functional.mse_loss(model(x), y).backward()\n    opt.step()\n"
	cases := map[string]string{
		"model called outside a loop":          head + loop + "print(model(torch.randn(1, 4)))\n",
		"model passed to a function":           head + "def evaluate(m):\n    return m\n\n" + loop + "evaluate(model)\n",
		"tensor created in the loop":           head + "for x, y in loader:\n    noise = torch.randn(2, 4)\n    torch.nn.functional.mse_loss(model(x + noise), y).backward()\n    opt.step()\n",
		"tensor built before the loop":         head + "scale = torch.ones(1)\nfor x, y in loader:\n    torch.nn.functional.mse_loss(model(x) * scale, y).backward()\n    opt.step()\n",
		"numpy in the file":                    head + "for x, y in loader:\n    out = model(x)\n    torch.nn.functional.mse_loss(out, y).backward()\n    opt.step()\n    print(out.detach().numpy())\n",
		"the loop body shares its header line": head + "for x, y in loader: torch.nn.functional.mse_loss(model(x), y).backward()\n",
		"a dictionary batch":                   head + "for batch in loader:\n    model(batch['x']).sum().backward()\n    opt.step()\n",
		"a batch handed to a helper":           head + "def prep(t):\n    return t\n\nfor x, y in loader:\n    torch.nn.functional.mse_loss(model(prep(x)), y).backward()\n    opt.step()\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			f := rewrite.Parse("t.py", []byte(src))
			fds := Run(f, Selection{Select: []string{"DEV001"}}, &Env{Versions: DefaultVersions})
			if len(fds) != 1 {
				t.Fatalf("want one finding, got %+v", fds)
			}
			if fds[0].Fix != nil {
				out, _ := rewrite.ApplyEdits(f.Src.Bytes, fds[0].Fix.Edits)
				t.Errorf("want no code action, got one producing:\n%s", strings.TrimSpace(string(out)))
			}
		})
	}
}

// A script that trains on the CPU and only names a CUDA device (printed,
// built after training, as PyTorch's CIFAR-10 tutorial does) gets DEV001
// and none of the GPU-training advice (blind sample A: 14 such findings).
func TestCPUTrainingNamingCUDAGetsOnlyDEV001(t *testing.T) {
	src := `import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

loader = DataLoader(datasets.CIFAR10("data", download=True, transform=transforms.ToTensor()), batch_size=4, shuffle=True)
net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
opt = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    running = 0.0
    for x, y in loader:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        running += loss.item()
    print(running)

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(device)
`
	f := rewrite.Parse("t.py", []byte(src))
	var codes []string
	for _, fd := range Run(f, Selection{}, &Env{Versions: DefaultVersions}) {
		codes = append(codes, fd.Code)
	}
	if strings.Join(codes, ",") != "DEV001" {
		t.Errorf("findings %v, want only DEV001", codes)
	}
}

"""Fused Adam (OPT001) on the narrow networks blind samples judged it
false on: one full training step (forward, loss, backward, Adam step) with
the default foreach Adam against fused=True, run alternately. Prints the
median step times and the speed-up; OPT001's narrow-network silence cites
these lines. Also prints whether a torch.device compares equal to the
string "cuda" (the `if self.device == "cuda":` branches of blind sample
S25D).

    python corpus/gpu/opt001_narrow.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from narrow_gates import mlp
from timing import pair

DEV = "cuda"


def cnn(channels, in_ch=3):
    layers = []
    for c in channels:
        layers += [nn.Conv2d(in_ch, c, 3, padding=1), nn.ReLU()]
        in_ch = c
    return nn.Sequential(*layers, nn.Conv2d(in_ch, 3, 3, padding=1))


class MnistCNN(nn.Module):
    """pytorch/examples' MNIST network: convolutions of 32 and 64
    channels, linear layers 9216-128-10."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1)
        self.fc1, self.fc2 = nn.Linear(9216, 128), nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


class TutorialCNN(nn.Module):
    """yunjey/pytorch-tutorial's MNIST network: two 5x5 convolutions of 16
    and 32 channels with batch norm and pooling, a linear head."""

    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(16, 32, 5, padding=2), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(7 * 7 * 32, 10)

    def forward(self, x):
        return self.fc(self.layer2(self.layer1(x)).reshape(x.size(0), -1))


class Experts(nn.Module):
    """Ten 3072-128-10 experts, as the MoE CIFAR example."""

    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList(mlp([3072, 128, 10]) for _ in range(10))

    def forward(self, x):
        return sum(e(x) for e in self.experts)


def step_fn(model, x, y, loss_fn, fused):
    opt = torch.optim.Adam(model.parameters(), lr=1e-4, fused=fused)

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        opt.step()

    return step


def measure(name, build, x, y, loss_fn):
    torch.manual_seed(0)
    model = build().to(DEV)
    tensors = sum(1 for _ in model.parameters())
    params = sum(p.numel() for p in model.parameters())
    foreach, fused = pair(step_fn(model, x, y, loss_fn, None), step_fn(model, x, y, loss_fn, True), 200, warmup=10)
    print(f"{name} ({tensors} tensors, {params / 1e6:.2f}M params): foreach {foreach * 1e3:.3f} ms, "
          f"fused {fused * 1e3:.3f} ms ({foreach / fused:.2f}x)", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    print('torch.device("cuda") == "cuda":', torch.device("cuda") == "cuda",
          '; torch.device("cuda:0") == "cuda:0":', torch.device("cuda:0") == "cuda:0", flush=True)
    ce, mse = F.cross_entropy, F.mse_loss
    x, y = torch.randn(100, 784, device=DEV), torch.randint(0, 10, (100,), device=DEV)
    measure("mnist mlp 784-500-10 b100", lambda: mlp([784, 500, 10]), x, y, ce)
    x, y = torch.randn(64, 3072, device=DEV), torch.randint(0, 10, (64,), device=DEV)
    measure("ten experts 3072-128-10 b64", Experts, x, y, ce)
    x = torch.randn(8, 3, 480, 640, device=DEV)
    measure("5 convs of 3 channels, 8x3x480x640", lambda: cnn([3, 3, 3, 3]), x, x.clone(), mse)
    x = torch.randn(32, 3, 100, 100, device=DEV)
    measure("6 convs of 32 channels, 32x3x100x100", lambda: cnn([32] * 6), x, x.clone(), mse)
    x = torch.randn(128, 3, 32, 32, device=DEV)
    measure("4 convs of 64/128 channels, 128x3x32x32", lambda: cnn([64, 64, 128, 128]), x, x.clone(), mse)
    x, y = torch.randn(64, 1, 28, 28, device=DEV), torch.randint(0, 10, (64,), device=DEV)
    measure("mnist cnn 32/64 ch, 9216-128-10, b64", MnistCNN, x, y, ce)
    x, y = torch.randn(100, 1, 28, 28, device=DEV), torch.randint(0, 10, (100,), device=DEV)
    measure("tutorial cnn 16/32 ch + bn, b100", TutorialCNN, x, y, ce)
    x, y = torch.randn(1080, 2 * 750, device=DEV), torch.randint(0, 2, (1080,), device=DEV)
    measure("tiny mlp 1500-16-2 b1080", lambda: mlp([1500, 16, 2]), x, y, ce)


if __name__ == "__main__":
    main()

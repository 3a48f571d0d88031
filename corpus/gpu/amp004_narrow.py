"""AMP004's narrow-network gate: fp32 against bf16 autocast, one training
step at a time, for networks of the sizes real RL, TCN and small-vision
code builds.

Each line prints the median step time of both and the speed-up; the
gate's thresholds (patterns/amp004_narrow_network.go) cite these lines.

    python corpus/gpu/amp004_narrow.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import train_step_ms

DEV = "cuda"


class Chomp(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        return x[:, :, : -self.n].contiguous()


def tcn(cin, width, levels, k):
    layers, c = [], cin
    for i in range(levels):
        d = 2**i
        pad = (k - 1) * d
        layers += [nn.Conv1d(c, width, k, padding=pad, dilation=d), Chomp(pad), nn.ReLU(),
                   nn.Conv1d(width, width, k, padding=pad, dilation=d), Chomp(pad), nn.ReLU()]
        c = width
    return nn.Sequential(*layers)


class TCNHead(nn.Module):
    def __init__(self, cin, width, levels, k, out):
        super().__init__()
        self.body = tcn(cin, width, levels, k)
        self.head = nn.Linear(width, out)

    def forward(self, x):
        return self.head(self.body(x)[:, :, -1])


def nature_cnn(actions=6):
    return nn.Sequential(
        nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
        nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(),
        nn.Linear(512, actions))


def mlp(sizes):
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def conv_net(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(2 * width * 8 * 8, 10))


def measure(name, build, x, y, loss_fn):
    torch.manual_seed(0)
    model = build().to(DEV)
    fp32 = train_step_ms(model, x, y, loss_fn, 60)
    bf16 = train_step_ms(model, x, y, loss_fn, 60, bf16=True)
    fp32b = train_step_ms(model, x, y, loss_fn, 60)  # the fp32 run again: drift check
    fp32 = min(fp32, fp32b)
    print(f"{name}: fp32 {fp32:.3f} ms, bf16 {bf16:.3f} ms, speed-up {fp32 / bf16:.2f}x", flush=True)


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    print(torch.__version__, torch.cuda.get_device_name())
    ce = F.cross_entropy
    for b in (32, 256):
        x = torch.randn(b, 4, 84, 84, device=DEV)
        y = torch.randint(0, 6, (b,), device=DEV)
        measure(f"nature cnn 32/64 ch + linear 3136x512 b{b}", nature_cnn, x, y, ce)
    for b in (256, 4096):
        x = torch.randn(b, 17, device=DEV)
        y = torch.randn(b, 1, device=DEV)
        measure(f"mlp 17-256-256-1 b{b}", lambda: mlp([17, 256, 256, 1]), x, y, F.mse_loss)
        measure(f"mlp 17-512-512-1 b{b}", lambda: mlp([17, 512, 512, 1]), x, y, F.mse_loss)
    x = torch.randn(64, 1, 784, device=DEV)
    y = torch.randint(0, 10, (64,), device=DEV)
    measure("tcn 25 ch x 8 levels k7, seq 784 b64 (pmnist)", lambda: TCNHead(1, 25, 8, 7, 10), x, y, ce)
    x = torch.randn(32, 2, 600, device=DEV)
    y = torch.randn(32, 1, device=DEV)
    measure("tcn 30 ch x 8 levels k7, seq 600 b32 (adding)", lambda: TCNHead(2, 30, 8, 7, 1), x, y, F.mse_loss)
    x = torch.randn(64, 1, 784, device=DEV)
    y = torch.randint(0, 10, (64,), device=DEV)
    measure("tcn 256 ch x 8 levels k7, seq 784 b64", lambda: TCNHead(1, 256, 8, 7, 10), x, y, ce)
    for w in (64, 128, 256):
        x = torch.randn(128, 3, 32, 32, device=DEV)
        y = torch.randint(0, 10, (128,), device=DEV)
        measure(f"cifar conv {w}/{2 * w} ch b128", lambda: conv_net(w), x, y, ce)


if __name__ == "__main__":
    main()

"""torch.compile (OPT004) and TF32 matmuls (AMP005) on the narrow
networks tutorials and tabular scripts train: one Adam training step in
fp32 against the step compiled (default mode), and against the step with
TF32 matmuls on. Prints the median step times and the speed-ups; the
narrow-network gates of OPT004 and AMP005 cite these lines.

    python corpus/gpu/narrow_gates.py
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import train_step_ms

DEV = "cuda"


def mlp(sizes):
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class LeNet(nn.Module):
    """The CIFAR-10 tutorial network: convolutions of 6 and 16 channels,
    linear layers of 120 and 84."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(3, 6, 5), nn.Conv2d(6, 16, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1, self.fc2, self.fc3 = nn.Linear(16 * 5 * 5, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class GRUForecaster(nn.Module):
    def __init__(self, features=100, hidden=100, out=321):
        super().__init__()
        self.rnn = nn.GRU(features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, out)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.head(h[:, -1])


def measure(name, build, x, y, loss_fn):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    model = build().to(DEV)
    fp32 = train_step_ms(model, x, y, loss_fn, 60)
    torch.backends.cuda.matmul.allow_tf32 = True
    tf32 = train_step_ms(model, x, y, loss_fn, 60)
    torch.backends.cuda.matmul.allow_tf32 = False
    fp32 = min(fp32, train_step_ms(model, x, y, loss_fn, 60))  # drift check
    torch.manual_seed(0)
    t0 = time.perf_counter()
    compiled = torch.compile(build().to(DEV))
    train_step_ms(compiled, x, y, loss_fn, 1, warmup=1)
    warm = time.perf_counter() - t0
    comp = train_step_ms(compiled, x, y, loss_fn, 60)
    print(f"{name}: fp32 {fp32:.3f} ms, tf32 {tf32:.3f} ms ({fp32 / tf32:.2f}x), "
          f"compiled {comp:.3f} ms ({fp32 / comp:.2f}x, compile {warm:.1f} s)", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    ce = F.cross_entropy
    for b in (100, 1024):
        x, y = torch.randn(b, 784, device=DEV), torch.randint(0, 10, (b,), device=DEV)
        measure(f"mnist mlp 784-500-10 b{b}", lambda: mlp([784, 500, 10]), x, y, ce)
    for b in (4, 128):
        x, y = torch.randn(b, 3, 32, 32, device=DEV), torch.randint(0, 10, (b,), device=DEV)
        measure(f"lenet 6/16 ch, 120-84-10 b{b}", LeNet, x, y, ce)
    x, y = torch.randn(64, 7, device=DEV), torch.randn(64, 6, device=DEV)
    measure("tabular mlp 7-32-16-6 b64", lambda: mlp([7, 32, 16, 6]), x, y, F.mse_loss)
    x, y = torch.randn(128, 168, 100, device=DEV), torch.randn(128, 321, device=DEV)
    measure("gru 100-100 seq 168 + linear 100x321 b128", GRUForecaster, x, y, F.mse_loss)
    x, y = torch.randn(512, 256, device=DEV), torch.randint(0, 10, (512,), device=DEV)
    measure("mlp 256-1024-1024-10 b512", lambda: mlp([256, 1024, 1024, 10]), x, y, ce)


if __name__ == "__main__":
    main()

"""SYNC002 on the narrow networks of tutorials: an MNIST-sized MLP and a
LeNet trained from a main-process DataLoader (num_workers=0) whose
dataset converts each sample on the CPU, as torchvision's ToTensor does.
Per-step `.item()` accumulation against accumulating on the device and
reading once after the epoch. Prints the median epoch times and the
speed-up; SYNC002's narrow-network gate cites these lines.

    python corpus/gpu/sync002_narrow.py
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from timing import pair

DEV = "cuda"
REPS = 15  # epochs of each, alternating


class Images(Dataset):
    """uint8 images converted per sample to normalised float tensors."""

    def __init__(self, n, shape, classes):
        rng = np.random.default_rng(0)
        self.x = rng.integers(0, 256, (n, *shape), dtype=np.uint8)
        self.y = rng.integers(0, classes, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        x = torch.from_numpy(self.x[i].astype(np.float32) / 255.0)
        return (x - 0.1307) / 0.3081, int(self.y[i])


def mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 500), nn.ReLU(), nn.Linear(500, 10))


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(3, 6, 5), nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.fc3 = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x.flatten(1))))))


def epochs(name, model, loader):
    model = model.to(DEV)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train(on_device):
        total = torch.zeros((), device=DEV, dtype=torch.float64) if on_device else 0.0
        correct = torch.zeros((), device=DEV, dtype=torch.int64) if on_device else 0
        for x, y in loader:
            x, y = x.to(DEV), y.to(DEV)
            out = model(x)
            loss = F.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if on_device:
                total += loss.detach()
                correct += (out.argmax(1) == y).sum()
            else:
                total += loss.item()
                correct += (out.argmax(1) == y).sum().item()
        return float(total), int(correct)

    def evaluate(on_device):
        correct = torch.zeros((), device=DEV, dtype=torch.int64) if on_device else 0
        with torch.no_grad():
            for x, y in loader:
                x, y = x.to(DEV), y.to(DEV)
                hit = (model(x).argmax(1) == y).sum()
                correct += hit if on_device else hit.item()
        return int(correct)

    before, after = pair(lambda: train(False), lambda: train(True), REPS, warmup=1)
    print(f"{name} train epoch: .item() per step {before * 1e3:.1f} ms, on device {after * 1e3:.1f} ms, speed-up {before / after:.3f}x", flush=True)
    before, after = pair(lambda: evaluate(False), lambda: evaluate(True), REPS, warmup=1)
    print(f"{name} eval pass: .item() per step {before * 1e3:.1f} ms, on device {after * 1e3:.1f} ms, speed-up {before / after:.3f}x", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    mnist = DataLoader(Images(6000, (1, 28, 28), 10), batch_size=100, shuffle=True)
    epochs("mnist mlp 784-500-10 b100, 60 steps", mlp(), mnist)
    cifar = DataLoader(Images(4000, (3, 32, 32), 10), batch_size=4, shuffle=True)
    epochs("cifar lenet b4, 1000 steps", LeNet(), cifar)
    cifar = DataLoader(Images(6400, (3, 32, 32), 10), batch_size=64, shuffle=True)
    epochs("cifar lenet b64, 100 steps", LeNet(), cifar)


if __name__ == "__main__":
    main()

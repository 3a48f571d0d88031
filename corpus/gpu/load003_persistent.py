"""LOAD003: what persistent_workers=True saves per epoch, on Linux's
default (fork) start method, for DataLoaders of 4 and 8 workers over

  - an in-memory dataset: 50,000 CIFAR-sized uint8 images with a random
    crop and flip in __getitem__ (batch 128: 391 steps an epoch);
  - the same dataset cut to 8 batches an epoch (DCGAN's --dataset fake);
  - a file-per-item dataset: 4,000 .npy images read in __getitem__
    (batch 32: 125 steps an epoch);

each feeding a small CNN's training step on the GPU.

    python3 corpus/gpu/load003_persistent.py

Per setting: the median wall time of epochs 2-6 (epoch 1 starts the
workers either way), without and with persistent workers, alternating.
"""

import os
import statistics
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

dev = torch.device("cuda")


class InMemory(Dataset):
    def __init__(self, n):
        g = np.random.default_rng(0)
        self.x = g.integers(0, 255, size=(n, 40, 40, 3), dtype=np.uint8)
        self.y = g.integers(0, 10, size=n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        r, c = np.random.randint(0, 8, size=2)
        img = self.x[i, r:r + 32, c:c + 32]
        if np.random.rand() < 0.5:
            img = img[:, ::-1]
        return torch.from_numpy(np.ascontiguousarray(img).transpose(2, 0, 1)).float().div(255), int(self.y[i])


class Files(Dataset):
    def __init__(self, folder, n):
        self.paths = []
        g = np.random.default_rng(1)
        for i in range(n):
            p = os.path.join(folder, f"{i}.npy")
            np.save(p, g.integers(0, 255, size=(96, 96, 3), dtype=np.uint8))
            self.paths.append(p)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = np.load(self.paths[i])[:64, :64]
        return torch.from_numpy(img.transpose(2, 0, 1).copy()).float().div(255), i % 10


def net():
    return nn.Sequential(
        nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
        nn.Flatten(), nn.Linear(2048, 10)).to(dev)


def epochs(ds, batch, workers, persistent, n=6):
    model = net()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loader = DataLoader(ds, batch_size=batch, shuffle=True, num_workers=workers,
                        pin_memory=True, persistent_workers=persistent)
    times = []
    for _ in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for x, y in loader:
            x, y = x.to(dev, non_blocking=True), y.to(dev, non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times[1:])


def main():
    print(torch.__version__, torch.cuda.get_device_name(), "cpus", os.cpu_count(), flush=True)
    mem = InMemory(50_000)
    short = torch.utils.data.Subset(mem, range(8 * 128))
    with tempfile.TemporaryDirectory() as d:
        files = Files(d, 4000)
        for name, ds, batch in (("in-memory 391 steps", mem, 128), ("in-memory 8 steps", short, 128), ("npy files 125 steps", files, 32)):
            for workers in (4, 8):
                off, on = [], []
                for _ in range(2):
                    off.append(epochs(ds, batch, workers, False))
                    on.append(epochs(ds, batch, workers, True))
                a, b = min(off), min(on)
                print(f"{name:22} workers {workers}: epoch {a*1000:8.1f} ms without, {b*1000:8.1f} ms with persistent workers: "
                      f"saves {(a-b)*1000:7.1f} ms an epoch ({a/b:.2f}x)", flush=True)


if __name__ == "__main__":
    sys.exit(main())

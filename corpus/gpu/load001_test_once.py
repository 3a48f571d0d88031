"""LOAD001 on a test loader read once: an MNIST- or CIFAR-style test set
(torchvision keeps these datasets in memory as uint8 arrays and converts
each item with PIL, ToTensor and Normalize) scored in one pass after
training, as tutorials do. Times the whole pass, loader start included:
num_workers=0 as written, against the settings gpuopt's fix writes
(min(8, CPUs) workers, pin_memory, persistent_workers, prefetch_factor 4).

    python corpus/gpu/load001_test_once.py
"""
import os
import statistics
import time

import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class InMemoryImages(Dataset):
    """torchvision.datasets.MNIST/CIFAR10's __getitem__: an array row to a
    PIL image, then the transform."""

    def __init__(self, n, shape, transform):
        rng = np.random.default_rng(0)
        self.data = rng.integers(0, 256, size=(n, *shape), dtype=np.uint8)
        self.targets = rng.integers(0, 10, size=n)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img = Image.fromarray(self.data[i])
        return self.transform(img), int(self.targets[i])


def one_pass(dataset, model, batch, **settings):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    loader = DataLoader(dataset, batch_size=batch, shuffle=False, **settings)
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            correct += (model(x).argmax(1) == y).sum()
    correct = int(correct)
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def main():
    print(torch.__version__, torch.cuda.get_device_name(), "CPUs", os.cpu_count())
    workers = min(8, os.cpu_count())
    fixed = dict(num_workers=workers, pin_memory=True, persistent_workers=True, prefetch_factor=4)
    cases = [
        ("MNIST-like 10k 28x28, MLP 784-500-10, batch 100", (28, 28), transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))]),
         nn.Sequential(nn.Flatten(), nn.Linear(784, 500), nn.ReLU(), nn.Linear(500, 10)), 100),
        ("CIFAR-like 10k 32x32x3, small CNN, batch 100", (32, 32, 3), transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))]),
         nn.Sequential(nn.Conv2d(3, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)), 100),
    ]
    for name, shape, tf, model, batch in cases:
        ds = InMemoryImages(10000, shape, tf)
        model = model.cuda().eval()
        one_pass(ds, model, batch)  # CUDA and cuDNN warm-up
        base, fix = [], []
        for _ in range(5):
            base.append(one_pass(ds, model, batch))
            fix.append(one_pass(ds, model, batch, **fixed))
        b, f = statistics.median(base), statistics.median(fix)
        print(f"{name}: num_workers=0 {b:.3f} s, fixed ({workers} workers) {f:.3f} s, speed-up {b / f:.2f}x", flush=True)


if __name__ == "__main__":
    main()

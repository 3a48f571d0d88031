"""LOAD002 on loaders over data already in memory: does pin_memory=True
pay when the dataset is a TensorDataset and the loader has no workers
(the pinning then runs in the training process, an extra host copy per
batch before the device copy)? Times training steps of a model sized
for each batch, pin_memory False against True, the batch moved with
.to("cuda") and with .to("cuda", non_blocking=True), 3 rounds each,
median steps per second. Then LOAD001's raise of a few workers over the
same in-memory data: 0, 2 and min(8, CPUs) persistent workers. Last,
pin_memory False against True behind 2 persistent workers (the pinning
then runs in the loader's pin thread). `--only workers-pin` runs that
last part alone.

    python corpus/gpu/load002_in_memory.py
"""
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def steps_per_s(loader, model, opt, non_blocking, steps):
    it = iter(loader)
    done = 0
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    while done < steps:
        try:
            x, y = next(it)
        except StopIteration:
            it = iter(loader)
            continue
        x = x.to("cuda", non_blocking=non_blocking)
        y = y.to("cuda", non_blocking=non_blocking)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        done += 1
    torch.cuda.synchronize()
    return steps / (time.perf_counter() - t0)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    only = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--only" else None
    cases = [
        ("tabular 14 features, MLP 14-256-256-2, batch 256 (14 KB)", (14,), 256, 20000,
         lambda: nn.Sequential(nn.Linear(14, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2)), 400),
        ("MNIST-size 784 floats, MLP 784-512-10, batch 256 (800 KB)", (784,), 256, 20000,
         lambda: nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 10)), 400),
        ("CIFAR-size 3x32x32 floats, small CNN, batch 256 (3 MB)", (3, 32, 32), 256, 10000,
         lambda: nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(),
                               nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 10)), 200),
        ("ImageNet-size 3x224x224 floats, small CNN, batch 64 (38 MB)", (3, 224, 224), 64, 640,
         lambda: nn.Sequential(nn.Conv2d(3, 32, 7, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 3, stride=2), nn.ReLU(),
                               nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)), 40),
    ]
    for name, shape, batch, n, make, steps in cases if only is None else []:
        torch.manual_seed(0)
        ds = TensorDataset(torch.randn(n, *shape), torch.randint(0, 2, (n,)))
        model = make().cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        for nb in (False, True):
            res = {}
            for pin in (False, True):
                loader = DataLoader(ds, batch_size=batch, shuffle=True, pin_memory=pin)
                steps_per_s(loader, model, opt, nb, steps // 4)  # warm-up
                res[pin] = []
            for _ in range(3):
                for pin in (False, True):
                    loader = DataLoader(ds, batch_size=batch, shuffle=True, pin_memory=pin)
                    res[pin].append(steps_per_s(loader, model, opt, nb, steps))
            off, on = statistics.median(res[False]), statistics.median(res[True])
            print(f"{name}; non_blocking={nb}: pin off {off:.0f} steps/s, pin on {on:.0f} steps/s, {on / off:.2f}x "
                  f"(rounds off {[round(r) for r in res[False]]}, on {[round(r) for r in res[True]]})", flush=True)

    workers = min(8, os.cpu_count())
    for name, shape, batch, n, make, steps in cases[:3] if only is None else []:
        torch.manual_seed(0)
        ds = TensorDataset(torch.randn(n, *shape), torch.randint(0, 2, (n,)))
        model = make().cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        res = {}
        for w in (0, 2, workers):
            extra = dict(persistent_workers=True, prefetch_factor=4) if w else {}
            loader = DataLoader(ds, batch_size=batch, shuffle=True, pin_memory=True, num_workers=w, **extra)
            steps_per_s(loader, model, opt, True, steps // 4)  # warm-up, workers started
            res[w] = statistics.median(steps_per_s(loader, model, opt, True, steps) for _ in range(3))
        print(f"{name}; workers 0: {res[0]:.0f} steps/s, 2: {res[2]:.0f} ({res[2] / res[0]:.2f}x), "
              f"{workers}: {res[workers]:.0f} ({res[workers] / res[0]:.2f}x); {workers} against 2: {res[workers] / res[2]:.2f}x", flush=True)

    for name, shape, batch, n, make, steps in cases:
        torch.manual_seed(0)
        ds = TensorDataset(torch.randn(n, *shape), torch.randint(0, 2, (n,)))
        model = make().cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        res = {}
        for pin in (False, True):
            loader = DataLoader(ds, batch_size=batch, shuffle=True, pin_memory=pin, num_workers=2,
                                persistent_workers=True, prefetch_factor=4)
            steps_per_s(loader, model, opt, True, steps // 4)
            res[pin] = statistics.median(steps_per_s(loader, model, opt, True, steps) for _ in range(3))
        print(f"{name}; 2 workers, non_blocking=True: pin off {res[False]:.0f} steps/s, pin on {res[True]:.0f} steps/s, "
              f"{res[True] / res[False]:.2f}x", flush=True)


if __name__ == "__main__":
    main()

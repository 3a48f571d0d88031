"""DEV001 on small MLPs: does moving a tutorial's network and batches to the
GPU pay? Times training steps (forward, loss, backward, SGD step) of MLPs
at the widths and batches tutorials use, on the CPU as written and on the
GPU (batches made on the host and copied each step, as a moved script
does), median of 3 rounds, and prints the GPU's speedup. The CPU runs
with PyTorch's default threads on this host (16 cores here; a laptop has
fewer, which favours the GPU).

    python corpus/gpu/dev001_toy.py
"""
import statistics
import time

import torch
from torch import nn


def steps_per_s(dims, batch, device, steps):
    torch.manual_seed(0)
    layers = []
    for a, b in zip(dims, dims[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    model = nn.Sequential(*layers[:-1]).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    x_host, y_host = torch.randn(batch, dims[0]), torch.randn(batch, dims[-1])

    def run(n):
        for _ in range(n):
            x, y = x_host.to(device), y_host.to(device)
            loss = (model(x) - y).pow(2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if device == "cuda":
            torch.cuda.synchronize()

    run(steps // 5)
    rounds = []
    for _ in range(3):
        t0 = time.perf_counter()
        run(steps)
        rounds.append(steps / (time.perf_counter() - t0))
    return statistics.median(rounds)


def main():
    print(torch.__version__, torch.cuda.get_device_name(), "CPU threads", torch.get_num_threads())
    cases = [
        ((1000, 100, 10), 64, "jcjohnson/pytorch-examples' two-layer net"),
        ((784, 128, 10), 64, "an MNIST MLP of 128"),
        ((784, 500, 10), 100, "the MNIST feed-forward tutorial"),
        ((1000, 1000, 10), 64, "a 1000-wide MLP"),
        ((4096, 4096, 10), 256, "a 4096-wide MLP"),
    ]
    for dims, batch, name in cases:
        cpu = steps_per_s(dims, batch, "cpu", 500)
        gpu = steps_per_s(dims, batch, "cuda", 500)
        print(f"{name}: {'-'.join(map(str, dims))} at batch {batch}: CPU {cpu:.0f} steps/s, GPU {gpu:.0f} steps/s, GPU {gpu / cpu:.2f}x", flush=True)


if __name__ == "__main__":
    main()

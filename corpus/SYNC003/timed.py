import time

import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
loader = DataLoader(list(range(10)), batch_size=2)


def bench():
    for x, _ in loader:
        t0 = time.perf_counter()
        model(x.cuda())
        torch.cuda.synchronize()
        print(time.perf_counter() - t0)


def bench_events():
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    for x, _ in loader:
        start.record()
        model(x.cuda())
        end.record()
        torch.cuda.synchronize()
        print(start.elapsed_time(end))


def periodic():
    for step, (x, _) in enumerate(loader):
        model(x.cuda())
        if step % 50 == 0:
            torch.cuda.synchronize()


def not_hot():
    for i in range(3):
        torch.cuda.synchronize()

import time

import torch
from torch import nn


def profile(layers, x, n=10):
    # Times forward and backward of each layer: no optimizer steps, nothing
    # is trained, so no script-wide switch is proposed (OPT003, AMP005).
    x = x.cuda().requires_grad_()
    for m in layers:
        m = m.cuda()
        for _ in range(n):
            t0 = time.perf_counter()
            y = m(x)
            y.sum().backward()
            print(m, time.perf_counter() - t0)


profile([nn.Conv2d(3, 16, 3), nn.Conv2d(3, 32, 5)], torch.randn(8, 3, 64, 64))

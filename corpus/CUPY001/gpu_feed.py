# Arrays of unknown size count when they end up on the GPU.
# gpuopt-env: target-gpu=a100-80gb
import numpy as np
import torch


def make_batch(n, d):
    noise = np.random.randn(n, d)  # want: CUPY001
    scaled = noise * 0.1 + 1.0
    return torch.tensor(scaled, device="cuda")


def positions(n):
    pos = np.arange(n)  # want: CUPY001
    return torch.from_numpy(pos).cuda()

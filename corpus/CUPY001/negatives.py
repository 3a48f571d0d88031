# Silent: small or unknown-size arrays that stay on the host, CuPy already.
# gpuopt-env: target-gpu=h100
import cupy as cp
import numpy as np
import torch

small = np.zeros((100, 100))
vec = np.random.rand(999_999)
t = torch.from_numpy(small).cuda()


def host_only(n):
    a = np.random.randn(n, 4)
    return a.sum()


g = cp.zeros((4096, 4096))
scalar = np.random.normal(0.0, 1.0)
h = np.arange(10, 20)

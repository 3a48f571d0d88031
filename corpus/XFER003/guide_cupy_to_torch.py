# The guide's "CuPy -> PyTorch (zero-copy)", written the slow way: through NumPy.
import cupy as cp
import torch

x_cupy = cp.random.randn(1000, 1000)
x_torch = torch.from_numpy(cp.asnumpy(x_cupy)).cuda()  # want: XFER003
y_torch = torch.from_numpy(cp.asnumpy(cp.random.randn(1000, 1000))).cuda()  # want: XFER003

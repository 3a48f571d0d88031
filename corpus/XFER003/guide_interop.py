# The guide's "Interop with PyTorch", written the slow way: through NumPy.
import cupy as cp
import torch

# CuPy -> PyTorch
x_cupy = cp.random.randn(1000, 1000)
x_torch = torch.from_numpy(cp.asnumpy(cp.random.randn(1000, 1000))).cuda()  # want: XFER003
x_torch2 = torch.from_numpy(cp.asnumpy(x_cupy)).cuda()  # want: XFER003

# PyTorch -> CuPy
x_torch = torch.randn(1000, 1000, device="cuda")
x_cupy = cp.asarray(x_torch.cpu().numpy())  # want: XFER003
x_cupy2 = cp.array(x_torch.cpu().numpy())  # want: XFER003
x_cupy3 = cp.asarray((x_torch @ x_torch).cpu().numpy())  # want: XFER003

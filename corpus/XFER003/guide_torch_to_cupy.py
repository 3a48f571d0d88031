# The guide's "PyTorch -> CuPy (zero-copy)", written the slow way: through NumPy.
import cupy as cp
import torch

x_torch = torch.randn(1000, 1000, device="cuda")
x_cupy = cp.asarray(x_torch.cpu().numpy())  # want: XFER003
x_copy = cp.array(x_torch.cpu().numpy())  # want: XFER003
x_prod = cp.asarray((x_torch @ x_torch).cpu().numpy())  # want: XFER003

# Explicit streams: the host copy was what ordered CuPy's work before PyTorch's.
import cupy as cp
import torch

stream = cp.cuda.Stream(non_blocking=True)
with stream:
    y = cp.random.rand(1024) * 2

t = torch.from_numpy(cp.asnumpy(y * 3)).cuda()  # want: XFER003
back = cp.array(t.cpu().numpy())  # want: XFER003

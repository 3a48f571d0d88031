import cupy as cp
import numpy as np
import torch

x = cp.arange(10)
t = torch.arange(10, device="cuda")

# Host results that stay on the host.
host = torch.from_numpy(cp.asnumpy(x))
arr = cp.asnumpy(x)
cpu_t = torch.tensor(cp.asnumpy(x), device="cpu")
cpu_t2 = torch.from_numpy(cp.asnumpy(x)).to("cpu")

# Keywords the rewrite would lose or change.
g = torch.tensor(cp.asnumpy(x), device="cuda", requires_grad=True)
s = torch.from_numpy(cp.asnumpy(x, stream=cp.cuda.get_current_stream())).cuda()
c = cp.array(t.cpu().numpy(), copy=False)
b = cp.asarray(t.cpu().numpy(), blocking=True)

# Not a tensor's round trip: NumPy arrays and tensors kept on the host.
n = np.ones(3)
h = cp.asarray(n)
k = cp.asarray(t.cpu())
k2 = cp.asarray(t.numpy())
l = cp.asarray(t.cpu().numpy().T)

# .get() on something that is not evidently a CuPy array (a dict).
d = {"a": np.ones(2)}
dt = torch.from_numpy(d.get("a")).cuda()
cfg = {}
w = torch.tensor(cfg.get()).cuda()

# Already the guide's "after".
x_torch = torch.as_tensor(x, device="cuda")
x_cupy = cp.asarray(x_torch)

# Not rewritten (the finding has no fix): views may have negative strides,
# on which torch.as_tensor aborts.
flipped = x[::-1]
tf = torch.from_numpy(cp.asnumpy(flipped)).cuda()  # want: XFER003

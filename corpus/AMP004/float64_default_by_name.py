# gpuopt-env: target-gpu=h100
# The script makes float64 the default through a name
# (`dtype = torch.float64; torch.set_default_dtype(dtype)`), as motion
# prediction code does (blind sample S24F's DLow): the network trains in
# float64, which autocast never casts, so a wrap would do nothing. Silent.
import torch
from torch import nn

dtype = torch.float64
torch.set_default_dtype(dtype)
model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
loss_fn = nn.MSELoss()
for step in range(10):
    x = torch.randn(4, 4096, device="cuda", dtype=dtype)
    y = torch.randn(4, 4096, device="cuda", dtype=dtype)
    optimizer.zero_grad()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    optimizer.step()

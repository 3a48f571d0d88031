# gpuopt-env: target-gpu=h100
# A continuous normalizing flow: the forward is an adaptive ODE solve
# (dopri5 at tolerances of 1e-5, in a sibling module that imports
# torchdiffeq) whose error control bf16 would break (blind sample S17I's
# FFJORD). No autocast advice.
import torch

from odefunc import CNF

model = CNF(1024).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
times = torch.tensor([0.0, 1.0], device="cuda")
for itr in range(10000):
    x = torch.randn(512, 1024, device="cuda")
    loss = model(x, times).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

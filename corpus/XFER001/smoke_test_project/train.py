"""Trains the module's network: each step's noise is built on the CPU and
copied (reported)."""
import torch

from net import Net

model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    noise = torch.randn(8, 3, 64, 64).cuda()  # want: XFER001
    loss = model(noise).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

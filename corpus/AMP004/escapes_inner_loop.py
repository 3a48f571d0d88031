# gpuopt-env: target-gpu=h100 torch=2.4
# A generator step in an inner loop: gen_cost is set to None before it,
# assigned in it, and read after it by TensorBoard and NumPy, which refuse
# a bf16 tensor. Which binding reaches the read is not clear to a
# straight-line reading, but the loop's may: the finding says to add
# .float() there and does not wrap (blind sample S16E's WGAN-GP, whose
# wrapped step crashed at `gen_cost.cpu().data.numpy()`).
import numpy as np
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(128, 4096), nn.ReLU(), nn.Linear(4096, 3 * 64 * 64)).cuda()
D = nn.Sequential(nn.Linear(3 * 64 * 64, 4096), nn.ReLU(), nn.Linear(4096, 1)).cuda()
opt_g = torch.optim.Adam(G.parameters(), lr=1e-4)
costs = []
for iteration in range(100000):
    gen_cost = None
    for i in range(5):
        G.zero_grad()
        fake = G(torch.randn(256, 128, device="cuda"))  # want: AMP004
        gen_cost = D(fake)
        gen_cost = gen_cost.mean()
        gen_cost.backward()
        gen_cost = -gen_cost
    opt_g.step()
    writer.add_scalar("data/gen_cost", gen_cost, iteration)
    costs.append(gen_cost.cpu().data.numpy())

# GradNorm-style training: a loop of autograd.grad calls per step, one
# per task, over losses already computed (no forward in the loop). The
# step is one pass of the network, not k, so the epoch of one batch
# restarts four workers every step: reported.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
data = TensorDataset(torch.randn(100, 250), torch.randn(100, 2))
loader = DataLoader(data, batch_size=200, num_workers=4, pin_memory=True)  # want: LOAD003
shared = nn.Linear(250, 100).to(device)
heads = nn.ModuleList([nn.Linear(100, 1) for _ in range(2)]).to(device)
weights = torch.ones(2, device=device, requires_grad=True)
optimizer = torch.optim.Adam(list(shared.parameters()) + list(heads.parameters()), fused=True)
for epoch in range(25000):
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        h = shared(x)
        losses = torch.stack([nn.functional.mse_loss(head(h).squeeze(1), y[:, i]) for i, head in enumerate(heads)])
        norms = []
        for i in range(2):
            g = torch.autograd.grad(weights[i] * losses[i], shared.weight, retain_graph=True)[0]
            norms.append(g.norm())
        optimizer.zero_grad(set_to_none=True)
        (weights * losses).sum().backward()
        optimizer.step()

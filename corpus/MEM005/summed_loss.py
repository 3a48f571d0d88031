# gpuopt-env: target-gpu=h100
# A summed loss (reduction="sum"): the gradient already grows with the
# batch, so raising the batch and scaling the learning rate as the table
# says would compound. No MEM005.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 1)).cuda()
loader = DataLoader(TensorDataset(torch.randn(10000, 64), torch.randn(10000, 1)), batch_size=64, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
loss_fn = nn.MSELoss(reduction="sum")
opt = torch.optim.SGD(model.parameters(), lr=1e-4, fused=True)
for epoch in range(10):
    for x, y in loader:
        loss = loss_fn(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        opt.zero_grad()
        loss.backward()
        opt.step()

import torch
from torch import nn

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 2)).cuda()  # want: OPT004
optimizer = torch.optim.AdamW(model.parameters())
for step in range(100000):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()

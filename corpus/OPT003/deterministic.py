import torch
from torch import nn

# Determinism requested: benchmark would pick different algorithms per run.
torch.backends.cudnn.deterministic = True
model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten()).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2, 3, 8, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()

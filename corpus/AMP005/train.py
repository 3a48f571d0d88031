# gpuopt-env: target-gpu=h100
import torch
from torch import nn

model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):  # want: AMP005
    loss = model(torch.randn(64, 1024, device="cuda")).sum()
    loss.backward()
    optimizer.step()

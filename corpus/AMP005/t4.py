# gpuopt-env: target-gpu=t4
import torch
from torch import nn

# No TF32 before compute capability 8.0.
model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()

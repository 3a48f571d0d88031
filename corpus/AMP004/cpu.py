# gpuopt-env: target-gpu=h100
import torch
from torch import nn

# Trains on the CPU: CUDA autocast does not apply.
model = nn.Linear(8, 2)
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 8)).sum()
    loss.backward()
    optimizer.step()

# gpuopt-env: target-gpu=h100
# An Accelerator built without mixed_precision takes it from `accelerate
# launch --mixed_precision fp16` or the saved accelerate config: the code
# does not show that the matmuls run in fp32. Silent (blind sample S20L).
import accelerate
import torch
from torch import nn

accelerator = accelerate.Accelerator()
model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024))
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
model, optimizer = accelerator.prepare(model, optimizer)

for step in range(100000):
    x = torch.randn(4096, 1024, device=accelerator.device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    accelerator.backward(loss)
    optimizer.step()

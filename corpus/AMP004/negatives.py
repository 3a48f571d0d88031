# gpuopt-env: target-gpu=h100
import torch
from torch import nn

model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()


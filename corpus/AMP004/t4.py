# gpuopt-env: target-gpu=t4
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 4096, device="cuda")).sum()  # want: AMP004
    loss.backward()
    optimizer.step()

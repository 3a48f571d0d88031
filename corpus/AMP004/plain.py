# gpuopt-env: target-gpu=h100
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
loss_fn = nn.MSELoss()
for step in range(10):
    x = torch.randn(4, 4096, device="cuda")
    y = torch.randn(4, 4096, device="cuda")
    optimizer.zero_grad()
    out = model(x)  # want: AMP004
    loss = loss_fn(out, y)
    loss.backward()
    optimizer.step()

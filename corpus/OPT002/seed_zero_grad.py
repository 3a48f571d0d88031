# gpuopt-env: torch=1.13
import torch
from torch import nn

model = nn.Linear(8, 1).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

# Seed 001, table row "optimizer.zero_grad: 默认 -> set_to_none=True". Only
# before torch 2.0, where it is not yet the default.
for step in range(10):
    optimizer.zero_grad()  # want: OPT002
    loss = model(torch.randn(4, 8, device="cuda")).mean()
    loss.backward()
    optimizer.step()

# gpuopt-env: target-gpu=h100 torch=1.8
# torch 1.8 has no set_float32_matmul_precision, and its matmuls already
# use TF32 by default (from 1.7 to 1.11): silent.
import torch
from torch import nn

model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()

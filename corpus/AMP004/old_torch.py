# gpuopt-env: target-gpu=h100 torch=1.8
# torch.autocast (and bf16 autocast) arrived in 1.10: on a project pinned
# to 1.8 the wrap cannot run, and there is no finding.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = nn.functional.cross_entropy(model(torch.randn(64, 512, device="cuda")), torch.zeros(64, dtype=torch.long, device="cuda"))
    loss.backward()
    optimizer.step()

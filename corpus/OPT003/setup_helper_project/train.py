# The script calls the project's set-up helper (blind sample S38AA's
# wildfire trainer), which turns cudnn.benchmark on and sets the matmul
# precision: neither OPT003 nor AMP005 asks for them again.
import torch
import torch.nn as nn

from utils import setup_torch

setup_torch(0)
model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(100):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

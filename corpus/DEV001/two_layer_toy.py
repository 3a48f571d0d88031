# A tutorial's two-layer net, 1000-100-10 at batch 64, trained on the CPU:
# it trained 0.31x as fast on an H100 as on its host's CPU
# (corpus/gpu/dev001_toy.py), so DEV001 stays silent (blind sample S14G).
import torch
from torch import nn

model = nn.Sequential(nn.Linear(1000, 100), nn.ReLU(), nn.Linear(100, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
x, y = torch.randn(64, 1000), torch.randn(64, 10)
for t in range(500):
    loss = (model(x) - y).pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

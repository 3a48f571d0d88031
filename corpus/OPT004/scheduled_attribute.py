# A drop-path schedule set on the model every epoch (blind sample S21J's
# P-DARTS: `model.module.drop_path_prob = p * epoch / epochs`). The forward
# reads the attribute, which torch.compile guards on: each new value
# recompiles the graph, and after eight recompiles the frame runs
# uncompiled. No compile hint for that model; a model without such a
# schedule keeps it.
import torch
from torch import nn


class Cell(nn.Module):
    def __init__(self, width=4096):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
        self.drop_path_prob = 0.0

    def forward(self, x):
        if self.training and self.drop_path_prob > 0:
            keep = torch.rand(x.size(0), 1, device=x.device) > self.drop_path_prob
            return x + self.fc(x) * keep / (1 - self.drop_path_prob)
        return x + self.fc(x)


model = Cell().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
epochs = 50
for epoch in range(epochs):
    model.drop_path_prob = 0.2 * epoch / epochs
    for step in range(100):
        loss = model(torch.randn(64, 4096, device="cuda")).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

head = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()  # want: OPT004
head_opt = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(epochs):
    for step in range(100):
        loss = head(torch.randn(64, 4096, device="cuda")).logsumexp(1).mean()
        head_opt.zero_grad()
        loss.backward()
        head_opt.step()

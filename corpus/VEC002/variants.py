import json

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)


net = Net()
data = torch.randn(8, 16)

rows = [net(s[None]) for s in data]  # want: VEC002
stacked = torch.cat(rows, dim=0)

# Unknown consumer: a hint without a fix.
each = [net(s.unsqueeze(dim=0)) for s in data]  # want: VEC002
json.dumps([e.tolist() for e in each])

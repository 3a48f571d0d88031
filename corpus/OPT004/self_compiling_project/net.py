import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


class PolicyNet(nn.Module):
    """Compiles its own residual blocks as it builds them."""

    def __init__(self, d=1024, depth=6):
        super().__init__()
        self.stem = nn.Linear(768, d)
        self.blocks = nn.ModuleList(torch.compile(Block(d)) for _ in range(depth))
        self.head = nn.Linear(d, 4672)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)

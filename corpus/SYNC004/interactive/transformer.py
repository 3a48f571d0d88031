# The style-transfer network the stylizer loads.
import torch.nn as nn


class TransformerNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 9, padding=4), nn.ReLU(), nn.Conv2d(32, 3, 9, padding=4))

    def forward(self, x):
        return self.body(x)

"""The operator: lift, two spectral layers, project."""
import torch.nn as nn

from .spectral import SpectralConv2d


class FNO2d(nn.Module):
    def __init__(self, modes, width):
        super().__init__()
        self.lift = nn.Conv2d(1, width, 1)
        self.layers = nn.ModuleList(SpectralConv2d(width, modes) for _ in range(2))
        self.proj = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        x = self.lift(x)
        for layer in self.layers:
            x = x + layer(x)
        return self.proj(x)

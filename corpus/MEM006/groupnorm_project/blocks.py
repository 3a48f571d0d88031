import torch.nn as nn


class ConvBlock(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.norm = nn.GroupNorm(2, c_out)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Forecaster(nn.Module):
    def __init__(self, frames=12, width=128):
        super().__init__()
        self.body = nn.Sequential(ConvBlock(frames, width), *[ConvBlock(width, width) for _ in range(8)])
        self.head = nn.Conv2d(width, frames, 1)

    def forward(self, x):
        return self.head(self.body(x))

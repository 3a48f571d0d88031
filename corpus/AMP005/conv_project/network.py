# U-Nets built from convolution blocks only.
import torch
from torch import nn


class conv_block(nn.Module):
    def __init__(self, ch_in, ch_out):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(ch_in, ch_out, 3, padding=1), nn.BatchNorm2d(ch_out), nn.ReLU(inplace=True))

    def forward(self, x):
        return self.conv(x)


class U_Net(nn.Module):
    def __init__(self, img_ch=3, output_ch=1):
        super().__init__()
        self.down = conv_block(img_ch, 64)
        self.out = nn.Conv2d(64, output_ch, 1)

    def forward(self, x):
        return self.out(self.down(x))


class AttnHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4096, 4096)

    def forward(self, x):
        return self.proj(x)

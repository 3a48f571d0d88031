import torch.nn as nn
import torch.optim as optim

from settings import *


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


def build():
    net = Segmenter().to(DEVICE)
    opt = optim.Adam(net.parameters(), lr=LEARNING_RATE)  # want: OPT001
    return net, opt


def build_on_host():
    # HOST is the CPU: fused kernels are for CUDA parameters.
    net = Segmenter().to(HOST)
    opt = optim.Adam(net.parameters(), lr=LEARNING_RATE)
    return net, opt

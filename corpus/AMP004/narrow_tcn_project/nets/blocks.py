# A temporal convolution stack: every width is a parameter, set by the
# class that builds it in model.py, itself built by train.py.
import numpy as np
import torch.nn as nn
from torch.nn.utils import weight_norm


class CausalBlock(nn.Module):
    def __init__(self, c_in, c_out, kernel, dilation, init_std=np.sqrt(0.01)):
        super().__init__()
        pad = (kernel - 1) * dilation
        self.conv = weight_norm(nn.Conv1d(c_in, c_out, kernel, padding=pad, dilation=dilation))
        self.skip = nn.Conv1d(c_in, c_out, 1) if c_in != c_out else None
        self.pad = pad

    def forward(self, x):
        y = self.conv(x)[:, :, : -self.pad].relu()
        return y + (x if self.skip is None else self.skip(x))


class CausalStack(nn.Module):
    def __init__(self, c_in, widths, kernel=2):
        super().__init__()
        blocks = []
        for i in range(len(widths)):
            first = c_in if i == 0 else widths[i - 1]
            blocks.append(CausalBlock(first, widths[i], kernel, 2**i))
        self.blocks = nn.Sequential(*blocks)

    def forward(self, x):
        return self.blocks(x)

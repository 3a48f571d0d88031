"""A spectral convolution: its weights are complex parameters."""
import torch
import torch.nn as nn


class SpectralConv2d(nn.Module):
    def __init__(self, width, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (width * width)
        self.weight = nn.Parameter(scale * torch.rand(width, width, modes, modes, dtype=torch.cfloat))

    def forward(self, x):
        ft = torch.fft.rfft2(x)
        out = torch.zeros_like(ft)
        out[:, :, : self.modes, : self.modes] = torch.einsum("bixy,ioxy->boxy", ft[:, :, : self.modes, : self.modes], self.weight)
        return torch.fft.irfft2(out, s=x.shape[-2:])

"""A Fourier layer: the FFT of its input, which under bf16 autocast would
be a bf16 activation that cuFFT refuses."""
import torch
from torch import nn


class SpectralConv2d(nn.Module):
    def __init__(self, width, modes):
        super().__init__()
        self.modes = modes
        self.weights = nn.Parameter(torch.randn(width, width, modes, modes, dtype=torch.cfloat) / width)

    def forward(self, x):
        x_ft = torch.fft.rfft2(x)
        out = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, : self.modes, : self.modes], self.weights)
        return torch.fft.irfft2(out, s=x.shape[-2:])


class FNO(nn.Module):
    def __init__(self, width=64, modes=12):
        super().__init__()
        self.lift = nn.Conv2d(3, width, 1)
        self.spectral = nn.ModuleList([SpectralConv2d(width, modes) for _ in range(4)])
        self.project = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        x = self.lift(x)
        for layer in self.spectral:
            x = torch.relu(layer(x))
        return self.project(x)

# A spectral layer with complex weights: fused=True would raise at the
# first optimizer step ("requires all the params to be floating point").
import torch
from torch import nn


class SpectralConv(nn.Module):
    def __init__(self, c, modes):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(c, c, modes, dtype=torch.cfloat) / c)

    def forward(self, x):
        return torch.einsum("bim,iom->bom", torch.fft.rfft(x)[..., : self.weight.shape[-1]], self.weight)


model = SpectralConv(4, 8).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

import torch
import torch.nn as nn


class FourierMixing(nn.Module):
    """Mixes a sequence in the frequency domain, as Fourier attention does."""

    def __init__(self, width):
        super().__init__()
        self.query = nn.Linear(width, width)

    def forward(self, x):
        q = self.query(x)  # bf16 under a bf16 autocast
        freq = torch.fft.rfft(q, dim=1)  # cuFFT has no bf16 kernels
        return torch.fft.irfft(freq, n=x.shape[1], dim=1)

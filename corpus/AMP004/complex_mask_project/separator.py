"""A source-separation network (blind sample S21K's U-Net): the STFT of
the mixture in, a complex mask out of its last convolution through
view_as_complex. Neither takes bf16: cuFFT has no bf16 kernels, and
view_as_complex accepts half, float and double only."""
import torch
import torch.nn as nn


class Separator(nn.Module):
    def __init__(self, n_fft=2048, hop=441):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.body = nn.Sequential(
            nn.Conv2d(4, 1024, 3, padding=1), nn.ReLU(), nn.Conv2d(1024, 4, 3, padding=1)
        )

    def forward(self, mixture):
        b, c, t = mixture.shape
        sp = torch.stft(mixture.reshape(b * c, t), self.n_fft, self.hop, window=self.window, return_complex=True)
        x = torch.view_as_real(sp).reshape(b, c * 2, *sp.shape[-2:])
        x = self.body(x).reshape(b * c, 2, *sp.shape[-2:]).permute(0, 2, 3, 1).contiguous()
        mask = torch.view_as_complex(x)
        return torch.istft(mask * sp, self.n_fft, self.hop, window=self.window, length=t).reshape(b, c, t)

"""A mel spectrogram as a module: its filters are buffers, not parameters."""
import torch
import torch.nn as nn


class Audio2Mel(nn.Module):
    def __init__(self, n_fft=1024, n_mels=80):
        super().__init__()
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("mel_basis", torch.rand(n_mels, n_fft // 2 + 1))
        self.n_fft = n_fft

    def forward(self, audio):
        spec = torch.stft(audio.squeeze(1), self.n_fft, window=self.window, return_complex=True).abs()
        return torch.log(torch.clamp(self.mel_basis @ spec, min=1e-5))

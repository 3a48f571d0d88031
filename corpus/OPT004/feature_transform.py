# gpuopt-env: target-gpu=h100
# A feature transform built as an nn.Module with no layer and no parameter
# (MelGAN's Audio2Mel): nothing is trained, so there is nothing to
# compile for training. The generator it feeds is reported.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Audio2Mel(nn.Module):
    def __init__(self, n_fft=1024, n_mel=80):
        super().__init__()
        self.register_buffer("mel_basis", torch.randn(n_mel, n_fft // 2 + 1))
        self.register_buffer("window", torch.hann_window(n_fft))
        self.n_fft = n_fft

    def forward(self, audio):
        spec = torch.stft(audio, self.n_fft, window=self.window, return_complex=True).abs()
        return torch.log(torch.clamp(torch.matmul(self.mel_basis, spec), min=1e-5))


class Generator(nn.Module):
    def __init__(self, n_mel=80):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mel, 256, 7, padding=3), nn.LeakyReLU(0.2), nn.Conv1d(256, 1, 7, padding=3))

    def forward(self, mel):
        return self.net(mel).squeeze(1)


netG = Generator().cuda()  # want: OPT004
fft = Audio2Mel().cuda()
opt = torch.optim.Adam(netG.parameters(), fused=True)
torch.backends.cudnn.benchmark = True
for step in range(100000):
    audio = torch.randn(16, 8192, device="cuda")
    mel = fft(audio)
    loss = F.l1_loss(fft(netG(mel)), mel)
    opt.zero_grad()
    loss.backward()
    opt.step()

# gpuopt-env: target-gpu=h100
# Widths set by a tuple assignment (`self.d_l, self.d_a = 30, 30`) are
# read like any other: a network of 30-wide layers is narrow, no finding.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Fusion(nn.Module):
    def __init__(self, d_text, d_audio):
        super().__init__()
        self.d_l, self.d_a = 30, 30
        self.proj_l = nn.Conv1d(d_text, self.d_l, kernel_size=1)
        self.proj_a = nn.Conv1d(d_audio, self.d_a, kernel_size=1)
        self.out = nn.Linear(self.d_l + self.d_a, 1)

    def forward(self, text, audio):
        h = torch.cat([self.proj_l(text).mean(2), self.proj_a(audio).mean(2)], 1)
        return self.out(h)


model = Fusion(300, 74).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    text, audio = torch.randn(24, 300, 50, device="cuda"), torch.randn(24, 74, 50, device="cuda")
    loss = F.l1_loss(model(text, audio), torch.zeros(24, 1, device="cuda"))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

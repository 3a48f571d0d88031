# gpuopt-env: target-gpu=h100
# A generator with a self-attention block (SAGAN): convolutions, and
# torch.bmm products over every pair of positions, large matmuls that
# TF32 speeds up.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.query = nn.Conv2d(channels, channels // 8, 1)
        self.key = nn.Conv2d(channels, channels // 8, 1)
        self.value = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        q = self.query(x).view(b, -1, h * w).permute(0, 2, 1)
        k = self.key(x).view(b, -1, h * w)
        attn = F.softmax(torch.bmm(q, k), dim=-1)
        v = self.value(x).view(b, -1, h * w)
        return torch.bmm(v, attn.permute(0, 2, 1)).view(b, c, h, w) + x


model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), SelfAttention(64), nn.Conv2d(64, 3, 3, padding=1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
for step in range(1000):  # want: AMP005
    x = torch.randn(16, 3, 64, 64, device="cuda")
    loss = F.mse_loss(model(x), x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

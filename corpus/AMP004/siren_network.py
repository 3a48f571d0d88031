# gpuopt-env: target-gpu=h100
# A SIREN fitting an image: every hidden layer is followed by a Sine
# activation returning sin(w0 * x) with w0 = 30. bf16 rounds the layer's
# output to about three significant digits, which the factor 30 turns
# into phase errors of a tenth of a radian and more: the fit these
# networks exist for does not survive. No AMP004 (blind sample S31H),
# however wide the layers; with ReLU in place of Sine it is reported.
import torch
import torch.nn as nn


class Sine(nn.Module):
    def __init__(self, w0=30.0):
        super().__init__()
        self.w0 = w0

    def forward(self, x):
        return torch.sin(self.w0 * x)


model = nn.Sequential(nn.Linear(2, 4096), Sine(), nn.Linear(4096, 4096), Sine(), nn.Linear(4096, 4096), Sine(), nn.Linear(4096, 3)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
coords = torch.rand(65536, 2, device="cuda") * 2 - 1
target = torch.rand(65536, 3, device="cuda")
for step in range(10000):
    loss = (model(coords) - target).square().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# Noise drawn on the CPU, scaled in place by literals, then copied on
# every call (Social GAN's uniform noise): the factory takes device= and
# the in-place arithmetic stays. Scaling by a tensor is left alone.
import torch
import torch.nn as nn


def get_noise(shape, noise_type):
    if noise_type == "uniform":
        return torch.rand(*shape).sub_(0.5).mul_(2.0).cuda()  # want: XFER001
    return torch.randn(*shape).cuda()  # want: XFER001


def scaled(shape, scale):
    return torch.rand(*shape).mul_(scale).cuda()


decoder = nn.Linear(72, 32).cuda()
opt = torch.optim.Adam(decoder.parameters(), lr=1e-3, fused=True)
scale = torch.tensor(2.0)
for step in range(1000):
    h = torch.randn(64, 64, device="cuda")
    z = torch.cat([h, get_noise((64, 8), "uniform")], 1)
    loss = decoder(z).pow(2).mean() + scaled((4,), scale).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

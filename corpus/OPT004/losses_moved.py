"""Losses moved to the device beside the model they train: only the model is
worth compiling (a loss module, or a parameter-free module named like one,
has nothing to fuse across steps)."""
import torch
import torch.nn as nn


class DINOLoss(nn.Module):
    def forward(self, a, b):
        return (a - b).pow(2).mean()


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096))

    def forward(self, x):
        return self.net(x)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
generator = Generator().to(device)  # want: OPT004
criterion_pixel = nn.L1Loss().to(device)
dino_loss = DINOLoss().cuda()
opt = torch.optim.Adam(generator.parameters())
for step in range(100000):
    x = torch.randn(4, 8, device=device)
    out = generator(x)
    loss = criterion_pixel(out, x) + dino_loss(out, x)
    opt.zero_grad()
    loss.backward()
    opt.step()

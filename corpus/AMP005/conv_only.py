# gpuopt-env: target-gpu=h100
# A DCGAN whose two networks, defined here, are convolutions only: cuDNN
# already runs fp32 convolutions in TF32 (torch.backends.cudnn.allow_tf32
# defaults to True), and no matmul is left for the setting. Silent.
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(100, 512, 4, 1, 0), nn.BatchNorm2d(512), nn.ReLU(True),
            nn.ConvTranspose2d(512, channels, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(channels, 512, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(512, 1, 4, 1, 0))

    def forward(self, x):
        return self.main(x)


G, D = Generator().cuda(), Discriminator().cuda()
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, fused=True)
loader = torch.utils.data.DataLoader(torch.randn(64, 3, 8, 8), batch_size=16)
for epoch in range(10):
    for real in loader:
        fake = G(torch.randn(16, 100, 1, 1, device="cuda"))
        loss = D(fake.detach()).mean() - D(real.cuda()).mean()
        opt_d.zero_grad()
        loss.backward()
        opt_d.step()

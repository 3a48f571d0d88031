# An MNIST GAN as GAN collections write it: the networks' widths come from
# the image size the script's flags give (main.py), through the trainer
# class. Its generator (62-1024-6272, transposed convolutions of 64 and
# the image's channels) and discriminator (convolutions of 64 and 128,
# 6272-1024-1) ran 0.86× with bf16 autocast at batch 64 on an H100, and
# 1.00×/0.96× with TF32: no AMP005, and no AMP004 (the networks are narrow
# at the flag's default, what the script runs).
import torch
import torch.nn as nn


class generator(nn.Module):
    def __init__(self, input_dim=100, output_dim=1, input_size=32):
        super().__init__()
        self.input_size = input_size
        self.fc = nn.Sequential(
            nn.Linear(input_dim, 1024), nn.BatchNorm1d(1024), nn.ReLU(),
            nn.Linear(1024, 128 * (self.input_size // 4) * (self.input_size // 4)), nn.ReLU())
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(128, 64, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(64, output_dim, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        x = self.fc(z).view(-1, 128, self.input_size // 4, self.input_size // 4)
        return self.deconv(x)


class discriminator(nn.Module):
    def __init__(self, input_dim=1, output_dim=1, input_size=32):
        super().__init__()
        self.input_size = input_size
        self.conv = nn.Sequential(nn.Conv2d(input_dim, 64, 4, 2, 1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(64, 128, 4, 2, 1), nn.LeakyReLU(0.2))
        self.fc = nn.Sequential(nn.Linear(128 * (self.input_size // 4) * (self.input_size // 4), 1024),
                                nn.LeakyReLU(0.2), nn.Linear(1024, output_dim))

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


class GAN(object):
    def __init__(self, args, channels):
        self.batch_size = args.batch_size
        self.input_size = args.input_size
        self.z_dim = 62
        self.G = generator(input_dim=self.z_dim, output_dim=channels, input_size=self.input_size).cuda()
        self.D = discriminator(input_dim=channels, output_dim=1, input_size=self.input_size).cuda()
        self.G_optimizer = torch.optim.Adam(self.G.parameters(), lr=2e-4, fused=True)
        self.D_optimizer = torch.optim.Adam(self.D.parameters(), lr=2e-4, fused=True)
        self.loss = nn.BCEWithLogitsLoss()

    def train(self, loader):
        torch.backends.cudnn.benchmark = True
        for epoch in range(25):
            for x_, _ in loader:
                x_ = x_.cuda(non_blocking=True)
                z_ = torch.rand((self.batch_size, self.z_dim), device="cuda")
                ones = torch.ones(self.batch_size, 1, device="cuda")
                zeros = torch.zeros(self.batch_size, 1, device="cuda")
                self.D_optimizer.zero_grad()
                D_loss = self.loss(self.D(x_), ones) + self.loss(self.D(self.G(z_)), zeros)
                D_loss.backward()
                self.D_optimizer.step()
                self.G_optimizer.zero_grad()
                G_loss = self.loss(self.D(self.G(z_)), ones)
                G_loss.backward()
                self.G_optimizer.step()

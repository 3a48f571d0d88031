# gpuopt-env: target-gpu=h100
# A GAN class trained by its own train() method; main.py, the only script
# that runs it, turns cudnn.benchmark on first. Silent here.
import torch
import torch.nn as nn


class GAN:
    def __init__(self, loader):
        self.loader = loader
        self.D = nn.Sequential(nn.Conv2d(1, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 1, 4, 1, 0)).cuda()
        self.opt = torch.optim.Adam(self.D.parameters(), lr=2e-4, fused=True)

    def train(self, epochs):
        for epoch in range(epochs):
            for x in self.loader:
                loss = self.D(x.cuda()).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()

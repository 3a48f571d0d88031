# An image-to-image model kept in a plain class: train_step() moves the
# batch to the device the caller chose, runs the forward pass and the
# backward, and steps the optimizer. The training loop lives in train.py.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.Conv2d(width, 3, 3, padding=1))

    def forward(self, x):
        return self.body(x)


class Translator:
    def __init__(self, device="cpu", lr=1e-4):
        self.device = device
        self.net = Encoder().to(device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr, fused=True)
        self.criterion = nn.L1Loss()

    def update(self, source, target):
        self.opt.zero_grad()
        loss = self.criterion(self.net(source), target)
        loss.backward()
        self.opt.step()
        return loss

    def train_step(self, source, target):
        source, target = source.to(self.device), target.to(self.device)
        return self.update(source, target)

    def sample(self, loader):
        # Runs the network over a loader, no backward: not a step.
        for source, _ in loader:
            self.net(source.to(self.device))

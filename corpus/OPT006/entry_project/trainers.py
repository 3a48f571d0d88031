import torch
import torch.nn as nn


class MotionTrainer:
    def __init__(self, device):
        self.device = device
        self.model = nn.GRU(263, 1024, 2, batch_first=True).to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def train(self, epochs):
        x = torch.randn(64, 196, 263, device=self.device)
        for epoch in range(epochs):
            out, _ = self.model(x)
            loss = out.pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

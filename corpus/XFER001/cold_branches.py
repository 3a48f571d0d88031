# Factories in branches that the steps do not take: the rebuild of an
# operator after NaNs (blind sample S19B's Koopa), and a branch on a flag
# of self that the code only ever sets to False (S19C's minRF). A factory
# beside them, on the path every step takes, is still reported.
import torch
from torch import nn


class KoopmanLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.stratified = False
        self.K = None

    def forward(self, x):
        self.K = torch.linalg.lstsq(x[:, :-1], x[:, 1:]).solution
        if torch.isnan(self.K).any():
            self.K = torch.eye(self.K.shape[1]).unsqueeze(0).repeat(x.shape[0], 1, 1).to(x.device)
        if self.stratified:
            t = torch.rand(x.shape[0]).to(x.device)
        else:
            t = torch.sigmoid(torch.randn(x.shape[0]).to(x.device))  # want: XFER001
        return torch.bmm(x, self.K) * t[:, None, None]


model = KoopmanLayer(16).cuda()
opt = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    x = torch.randn(32, 48, 16, device="cuda")
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

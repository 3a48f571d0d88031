# A flow's inversion method builds its bounds on the CPU and moves them,
# then runs its own bisection loop: the set-up runs once a call, a small
# share of it, so only the factory inside the loop is reported (blind
# sample S25H's UMNN invert()). The forward's factory runs every step.
import torch
import torch.nn as nn


class MonotonicFlow(nn.Module):
    def __init__(self, dim, device="cuda"):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, dim))
        self.device = device

    def forward(self, x):
        shift = torch.zeros(x.shape).to(self.device)  # want: XFER001
        return self.net(x) + shift

    def invert(self, z, iters=30):
        left = -50 * torch.ones(z.shape).to(self.device)
        right = torch.ones(z.shape).to(self.device) * 50
        for _ in range(iters):
            mid = (left + right) / 2
            offset = torch.arange(0, z.shape[0]).to(self.device)  # want: XFER001
            too_big = (self.forward(mid) > z).float() + offset[:, None] * 0
            right = too_big * mid + (1 - too_big) * right
            left = too_big * left + (1 - too_big) * mid
        return (left + right) / 2


if __name__ == "__main__":
    flow = MonotonicFlow(8).cuda()
    opt = torch.optim.Adam(flow.parameters(), fused=True)
    for step in range(100):
        x = torch.randn(64, 8, device="cuda")
        loss = flow(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        for batch in range(10):
            print(flow.invert(torch.randn(64, 8, device="cuda")).mean())

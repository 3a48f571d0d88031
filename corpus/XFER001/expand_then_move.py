# A per-step target built on the CPU, expanded to the batch's shape and
# then copied: built on the device instead. The copy made the expanded
# view a tensor of its own, which in-place writes may need; `.contiguous()`
# keeps that.
import torch
import torch.nn as nn

device = torch.device("cuda")
netD = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 1, 4, 1, 0)).to(device)
optimizer = torch.optim.Adam(netD.parameters(), lr=2e-4, fused=True)
criterion = nn.MSELoss()
torch.backends.cudnn.benchmark = True


def train(loader):
    for real in loader:
        real = real.to(device, non_blocking=True)
        target = torch.ones(1).expand_as(real[:, :1, :1, :1]).to(device)  # want: XFER001
        target.mul_(0.9)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = netD(real)
            loss = criterion(out.mean((1, 2, 3), keepdim=True), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# A video network whose forward calls a function of the same module that
# builds its warp grid with NumPy on the host: torch.compile breaks its
# graph there on every step, so no compile hint (blind sample S25L's
# SOF-VSR).
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def warp(frame, flow):
    h, w = frame.shape[-2:]
    gx, gy = np.meshgrid(np.arange(w), np.arange(h))
    grid = torch.from_numpy(np.stack((gx, gy), -1)).float().to(frame.device)
    return F.grid_sample(frame, (grid + flow.permute(0, 2, 3, 1)) / max(h, w) * 2 - 1, align_corners=True)


class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(6, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 256, 3, padding=1), nn.ReLU())
        self.flow = nn.Conv2d(256, 2, 3, padding=1)
        self.fuse = nn.Conv2d(6, 3, 3, padding=1)

    def forward(self, a, b):
        flow = self.flow(self.features(torch.cat((a, b), 1)))
        return self.fuse(torch.cat((a, warp(b, flow)), 1))


def main(frames):
    torch.backends.cudnn.benchmark = True
    net = FlowNet().cuda()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4, fused=True)
    for a, b, target in frames:
        loss = F.l1_loss(net(a.cuda(), b.cuda()), target.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main([])

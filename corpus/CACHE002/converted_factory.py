# A factory under a reshape and a dtype conversion is still a tensor the
# module does not move: BTS copies these to the GPU in every forward.
import torch
import torch.nn as nn


class LocalPlanarGuidance(nn.Module):
    def __init__(self, upratio):
        super().__init__()
        self.upratio = upratio
        self.u = torch.arange(self.upratio).reshape([1, 1, self.upratio]).float()  # want: CACHE002
        self.v = torch.arange(int(self.upratio)).reshape([1, self.upratio, 1]).float()  # want: CACHE002
        # A conversion with an argument may change the device: left alone.
        self.w = torch.ones(upratio).to(torch.float16)

    def forward(self, plane_eq):
        u = self.u.repeat(plane_eq.size(0), 1, 1).cuda()
        v = self.v.repeat(plane_eq.size(0), 1, 1).cuda()
        return plane_eq * u * v * self.w.cuda()


model = LocalPlanarGuidance(8).cuda()

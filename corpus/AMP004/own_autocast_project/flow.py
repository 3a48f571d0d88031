# An optical-flow network (RAFT's pattern) that runs its own autocast
# regions, switched by the project's --mixed_precision flag.
import torch
import torch.nn as nn
from torch.cuda.amp import autocast


class FlowNet(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.encoder = nn.Sequential(nn.Conv2d(3, 256, 7, padding=3), nn.ReLU(), nn.Conv2d(256, 256, 3, padding=1))
        self.update = nn.Conv2d(512, 2, 3, padding=1)

    def forward(self, image1, image2):
        with autocast(enabled=self.args.mixed_precision):
            f1, f2 = self.encoder(image1), self.encoder(image2)
        # correlation kept in fp32 on purpose
        return self.update(torch.cat([f1.float(), f2.float()], 1))

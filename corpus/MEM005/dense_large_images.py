# gpuopt-env: target-gpu=h100
# A U-Net trained on 256-px crops: its decoder upsamples back to every
# pixel, so each sample keeps full-resolution activations and the batch is
# sized by memory; the seeds' table counts classification images. Silent
# (blind samples judged it false on a 256-px U-Net, FlowNet and AdaIN).
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader

from data import SegmentationSet


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.up = nn.ConvTranspose2d(64, 1, 2, stride=2)

    def forward(self, x):
        return self.up(self.down(x))


parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=16)
parser.add_argument("--image-size", type=int, default=256)
args = parser.parse_args()
model = UNet().cuda()
opt = torch.optim.Adam(model.parameters())
loader = DataLoader(SegmentationSet(args.image_size), batch_size=args.batch_size, shuffle=True, num_workers=8)
for epoch in range(100):
    for x, y in loader:
        loss = nn.functional.binary_cross_entropy_with_logits(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()

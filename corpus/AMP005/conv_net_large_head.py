# gpuopt-env: target-gpu=h100
"""A VGG-style network: thirteen 3x3 convolutions, which cuDNN already runs
in TF32, and a classifier head whose largest layer is 25088x4096. TF32
matmuls reach only the head: VGG-16 trained 1.02x faster with them on an
H200 (corpus/gpu/amp005_conv_heads.py). Silent."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def stage(c_in, c_out, n):
    layers = []
    for i in range(n):
        layers += [nn.Conv2d(c_in if i == 0 else c_out, c_out, 3, padding=1), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers, nn.MaxPool2d(2))


class VGGLike(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.features = nn.Sequential(stage(3, 64, 2), stage(64, 128, 2), stage(128, 256, 3), stage(256, 512, 3), stage(512, 512, 3))
        self.classifier = nn.Sequential(nn.Linear(25088, 4096), nn.ReLU(True), nn.Linear(4096, 4096), nn.ReLU(True), nn.Linear(4096, classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


model = VGGLike().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, fused=True)


def train(loader):
    for x, y in loader:
        loss = F.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

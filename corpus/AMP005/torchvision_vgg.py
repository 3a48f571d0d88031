# gpuopt-env: target-gpu=h100
# Two VGG-16s scoring outfit compatibility: convolutions that cuDNN already
# runs in TF32, and a 25088-4096-4096 classifier that is about 1% of the
# network's FLOPs at 224x224. The matmul setting has nothing to speed up:
# silent (blind sample S26D's polyvore model, S24H's NetVLAD).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class Compatibility(nn.Module):
    def __init__(self):
        super().__init__()
        self.top = torchvision.models.vgg16(weights=None)
        self.bottom = torchvision.models.vgg16(weights=None)
        self.score = nn.Linear(2000, 2)

    def forward(self, top, bottom):
        return self.score(torch.cat([self.top(top), self.bottom(bottom)], dim=1))


model = Compatibility().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, fused=True)
for step in range(10000):
    top = torch.randn(32, 3, 224, 224, device="cuda")
    bottom = torch.randn(32, 3, 224, 224, device="cuda")
    y = torch.randint(0, 2, (32,), device="cuda")
    loss = F.cross_entropy(model(top, bottom), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

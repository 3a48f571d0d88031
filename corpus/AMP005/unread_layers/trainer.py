# gpuopt-env: target-gpu=h100
# The network is picked by name from a module of CNNs whose layers the
# walk cannot read (`resnet.__dict__[args.arch]()`): AMP005 does not
# guess, and the module has no matmul beyond its 64×10 head (blind sample
# FF judged the finding false on this ResNet-20).
import argparse

import torch
import torch.nn as nn

import resnet

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet20")
args = parser.parse_args()

model = torch.nn.DataParallel(resnet.__dict__[args.arch]())
model.cuda()
criterion = nn.CrossEntropyLoss().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
for epoch in range(200):
    for _ in range(391):
        x = torch.randn(128, 3, 32, 32, device="cuda")
        y = torch.randint(0, 10, (128,), device="cuda")
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# gpuopt-env: target-gpu=h100
# A torchvision CNN picked by name, resnet50 by default: convolutions that
# cuDNN already runs in TF32, and a 2048x1000 head. The matmul setting has
# nothing to speed up: silent.
import argparse

import torch
import torch.nn.functional as F
import torchvision.models as models

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet50")
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = models.__dict__[args.arch]().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
for epoch in range(90):
    for _ in range(100):
        x = torch.randn(64, 3, 224, 224, device=device)
        y = torch.randint(0, 1000, (64,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

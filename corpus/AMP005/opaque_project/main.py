# gpuopt-env: target-gpu=h100
# The network is looked up by name (getattr(models, args.model)): gpuopt
# cannot read its layers, and this file shows no large matmul of its own,
# so AMP005 does not guess (here both choices are CNNs, whose convolutions
# cuDNN already runs in TF32).
import argparse

import torch

import models

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="resnet34")
args = parser.parse_args()

model = getattr(models, args.model)().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(10):
    images = torch.randn(32, 3, 224, 224, device="cuda")
    loss = model(images).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

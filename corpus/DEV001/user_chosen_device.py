"""The device comes from a flag first and falls back to MPS or the CPU:
`--device cuda` trains on the GPU, so nothing says the script never
chooses CUDA. Silent."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--device", default=None)
args = parser.parse_args()
device = torch.device(args.device if args.device else ("mps" if torch.backends.mps.is_available() else "cpu"))
model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 40)).to(device)
optimizer = torch.optim.Adam(model.parameters())


def train(loader):
    for epoch in range(100):
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

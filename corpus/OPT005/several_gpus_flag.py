# gpuopt-env: target-gpu=h100
# The profile is one H100, but the script's --gpus flag defaults to four
# devices and makes them visible, and a trainer defaults to two: the code
# is written for several GPUs, where DataParallel replicates the model
# every step. Reported.
import argparse
import os

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=str, default="0,1,2,3")
args = parser.parse_args()
os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus


def train(model, loader, n_gpus=2):
    model = nn.DataParallel(model.cuda(), device_ids=list(range(n_gpus)))  # want: OPT005
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = nn.DataParallel(nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda())  # want: OPT005
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(1000):
    x = torch.randn(256, 1024, device="cuda")
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
train(nn.Linear(1024, 10), [])

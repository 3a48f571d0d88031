"""Determinism switched on in the branch that tests for the GPU: on a GPU
it always runs, so determinism is the author's choice there, not an
option benchmark mode could honour."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--no_cuda", action="store_true")
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()
if args.cuda:
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False

model = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.Flatten(), nn.LazyLinear(10))
if args.cuda:
    model = model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader):
    for x, y in loader:
        if args.cuda:
            x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# An edge detector trained on whole images at batch 1 (blind sample S23F's
# RCF and HED): each epoch is one full forward and backward pass per
# image, so restarting the workers each epoch is a small share of it and
# LOAD003 stays silent. The loader without batch_size keeps the finding:
# its dataset may yield whole batches, and its epochs may be short.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=1)
args = parser.parse_args()


class Edges(Dataset):
    def __len__(self):
        return 28800

    def __getitem__(self, i):
        return torch.randn(3, 481, 321), torch.rand(1, 481, 321)


class Batches(Dataset):
    def __len__(self):
        return 100

    def __getitem__(self, i):
        return torch.randn(64, 3, 32, 32), torch.rand(64, 1, 32, 32)


net = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 1, 3, padding=1)).cuda()
opt = torch.optim.SGD(net.parameters(), lr=1e-6)
train_loader = DataLoader(Edges(), batch_size=args.batch_size, num_workers=8, shuffle=True, pin_memory=True)
batch_loader = DataLoader(Batches(), num_workers=4, pin_memory=True)  # want: LOAD003

for epoch in range(30):
    for image, edge in train_loader:
        image, edge = image.cuda(non_blocking=True), edge.cuda(non_blocking=True)
        loss = nn.functional.binary_cross_entropy_with_logits(net(image), edge)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for image, edge in batch_loader:
        image, edge = image[0].cuda(non_blocking=True), edge[0].cuda(non_blocking=True)
        loss = nn.functional.binary_cross_entropy_with_logits(net(image), edge)
        opt.zero_grad()
        loss.backward()
        opt.step()

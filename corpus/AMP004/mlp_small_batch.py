# gpuopt-env: target-gpu=h100
# A tabular MLP of 2048-wide layers trained at batch 256 (a flag's
# default): its matmuls are as large as the batch, and such MLPs ran
# 0.80-1.07× with TF32 and 0.75-0.91× with autocast at batch 256 and 512
# on an H100. No AMP004 (and no AMP005). At batch 4096 they gained
# (the AMP005 folder's mlp_batch.py keeps its hint where the batch is not shown).
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=256)
args = parser.parse_args()


class TabularNet(nn.Module):
    def __init__(self, n_features, n_targets, hidden=2048):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_targets))

    def forward(self, x):
        return self.net(x)


def train(dataset, n_features, n_targets):
    model = TabularNet(n_features, n_targets).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True)
    for epoch in range(25):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

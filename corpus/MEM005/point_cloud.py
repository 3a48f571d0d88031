# gpuopt-env: target-gpu=h100
# A point-cloud classifier sized by --num_points (blind samples S16B,
# S17E: DGCNN, PointNet, PointMLP): each sample carries per-point features
# and neighbour tensors, the batch of 32 is the paper's recipe, and the
# table's 512 counts images. No batch-size advice.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=32)
parser.add_argument("--num_points", type=int, default=1024)
parser.add_argument("--k", type=int, default=20)
args = parser.parse_args()

model = nn.Sequential(nn.Conv1d(3, 1024, 1), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(1024, 40)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=True, drop_last=True, num_workers=8, pin_memory=True, persistent_workers=True)
for epoch in range(250):
    for points, label in loader:
        points, label = points.cuda(non_blocking=True), label.cuda(non_blocking=True).squeeze()
        loss = nn.functional.cross_entropy(model(points.permute(0, 2, 1)), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

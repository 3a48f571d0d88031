# gpuopt-env: target-gpu=h100
# The script makes one GPU visible with a string: the DataParallel branch,
# taken when more than one device is visible, never runs (blind sample
# S15G's SLR sets CUDA_VISIBLE_DEVICES="2").
import os

import torch
import torch.nn as nn

os.environ["CUDA_VISIBLE_DEVICES"] = "2"

model = nn.Sequential(nn.Conv3d(3, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(64, 100)).cuda()
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for clips, labels in loader:
    loss = nn.functional.cross_entropy(model(clips.cuda()), labels.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

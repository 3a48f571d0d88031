# gpuopt-env: target-gpu=h100
# The experiment puts third_party on sys.path and star-imports its runner,
# whose seed_everything asks cuDNN for determinism: OPT003 stays silent.
# (No base directory of this file holds my_lib; the project's one module
# whose path ends in my_lib/runner.py is it.)
import os
import sys

import torch
import torch.nn as nn

sys.path.append(os.path.dirname(os.path.realpath(__file__)) + "/../third_party")
from my_lib.runner import *  # noqa: E402

seed_everything(42)
net = nn.Sequential(nn.Conv1d(36, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, 3)).cuda()
optimizer = torch.optim.AdamW(net.parameters(), lr=1e-3, fused=True)
for step in range(1000):
    x = torch.randn(512, 36, 142, device="cuda")
    y = torch.rand(512, 3, device="cuda")
    loss = nn.functional.binary_cross_entropy_with_logits(net(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

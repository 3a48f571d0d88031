# gpuopt-env: target-gpu=h100
# A tabular network whose widths come from the data and a config dict:
# the code shows no matmul large enough for TF32 to pay (MLPs up to
# 1024 × 1024 ran 0.80-1.10× with it on an H100), no attention, no
# vocabulary head. No AMP005: a finding would be a guess. (Widths the
# code shows as large keep it: mlp_batch.py.)
import json

import numpy as np
import torch
import torch.nn as nn

config = json.load(open("config.json"))
X = np.load("features.npy")
y = np.load("targets.npy")


class TabularNet(nn.Module):
    def __init__(self, n_features, hidden, n_targets):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_targets)

    def forward(self, x):
        return self.head(self.body(x))


model = TabularNet(X.shape[1], config["hidden"], y.shape[1]).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
features = torch.tensor(X, dtype=torch.float32, device="cuda")
targets = torch.tensor(y, dtype=torch.float32, device="cuda")
for epoch in range(100):
    for i in range(0, len(features), 256):
        loss = nn.functional.mse_loss(model(features[i : i + 256]), targets[i : i + 256])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# gpuopt-env: target-gpu=h100
"""A NumPy array written with Python numbers inside the step (a flag per
epoch, its index a range counter): no tensor reaches NumPy, so the wrap
stays on."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
seen = np.zeros(100)


def train(loader):
    for epoch in range(100):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = F.mse_loss(model(x), y)  # want: AMP004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            seen[epoch] = -1

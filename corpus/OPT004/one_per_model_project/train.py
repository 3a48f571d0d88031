# gpuopt-env: target-gpu=h100
# One model: built by models.create, moved and wrapped by a helper that
# returns it with its optimizer, trained by this script's train(). One
# finding, here, not one in each module it passes through.
import torch
import torch.nn.functional as F

import models
from helpers import create_optimizer


def train(model, optimizer, loader):
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = models.create("unet")  # want: OPT004
model, optimizer = create_optimizer(model, 0.01)
for epoch in range(100):
    train(model, optimizer, [(torch.randn(8, 3, 128, 128), torch.randn(8, 1, 128, 128))])

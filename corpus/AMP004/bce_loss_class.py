# gpuopt-env: target-gpu=h100
# A detector's loss class of this file computes F.binary_cross_entropy on
# sigmoid outputs, which autocast refuses: the finding says to switch to
# the logits form first and offers no wrap.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DetLoss(nn.Module):
    def forward(self, pred, target):
        obj = torch.sigmoid(pred[..., 4])
        return F.binary_cross_entropy(obj, target[..., 4], reduction="sum") + F.mse_loss(pred[..., :4], target[..., :4])


def train(model, loader, epochs=10):
    criterion = DetLoss()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for _ in range(epochs):
        for images, targets in loader:
            images, targets = images.cuda(non_blocking=True), targets.cuda(non_blocking=True)
            loss = criterion(model(images), targets)  # want: AMP004
            opt.zero_grad()
            loss.backward()
            opt.step()

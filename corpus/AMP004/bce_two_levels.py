# A glacier U-Net whose loss sums a Dice term and a helper that calls
# F.binary_cross_entropy on sigmoid outputs (blind sample S38AS): the
# binary cross-entropy sits two calls below the step, and autocast
# refuses it there too. The finding says so and offers no wrap.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


def bce_loss(y_hat, y):
    return F.binary_cross_entropy(y_hat, y, reduction="mean")


def dice_loss(y_hat, y, smooth=0.2):
    inter = (y_hat * y).sum()
    return 1 - (2 * inter + smooth) / (y_hat.sum() + y.sum() + smooth)


def loss(y_hat, y):
    return dice_loss(y_hat, y) + bce_loss(y_hat, y)


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torchvision.models.segmentation.fcn_resnet50(num_classes=3)

    def forward(self, x):
        return torch.sigmoid(self.net(x)["out"])


model = UNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(100):
    for x, y in loader:
        optimizer.zero_grad()
        y_hat = model(x.cuda())  # want: AMP004
        l = loss(y_hat, y.cuda())
        l.backward()
        optimizer.step()

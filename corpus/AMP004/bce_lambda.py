# A segmentation UNet whose criterion is a lambda mixing nn.BCELoss on its
# sigmoid output with a Dice term (blind sample S38U's layout recogniser,
# where the wrap was a broken fix): autocast refuses binary cross-entropy
# on probabilities, so the finding says to switch to BCEWithLogitsLoss
# first and no wrap is offered.
import torch
import torch.nn as nn
import torchvision


def dice_loss(pred, target, eps=1.0):
    inter = (pred * target).sum()
    return 1 - (2 * inter + eps) / (pred.sum() + target.sum() + eps)


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torchvision.models.segmentation.fcn_resnet50(num_classes=1)

    def forward(self, x):
        return torch.sigmoid(self.backbone(x)["out"])


model = UNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
criterion = lambda pred, target: 0.5 * nn.BCELoss()(pred, target) + 0.5 * dice_loss(pred, target)
for epoch in range(500):
    for images, masks in loader:
        images, masks = images.cuda(), masks.cuda()
        optimizer.zero_grad()
        outputs = model(images)  # want: AMP004
        loss = criterion(outputs, masks)
        loss.backward()
        optimizer.step()

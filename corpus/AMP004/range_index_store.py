# gpuopt-env: target-gpu=h100
# Crops written into a buffer by a slice and a `range` loop's index
# (`parts[i:i + 1, j] = F.interpolate(...)`): an int, so a copy into a
# view, which converts the bf16 crop to the buffer's dtype (checked on an
# H200, blind sample S26A's NTS-Net). The wrap stays safe and AMP004
# offers it, with no warning about stores by tensor index.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PartNet(nn.Module):
    def __init__(self, parts=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(512, 200)
        self.parts = parts

    def forward(self, x):
        crops = torch.zeros(x.size(0), self.parts, 3, 224, 224, device=x.device)
        for i in range(x.size(0)):
            for j in range(self.parts):
                crops[i:i + 1, j] = F.interpolate(x[i:i + 1, :, j * 8:j * 8 + 64, :64], size=(224, 224), mode="bilinear", align_corners=True)
        feats = self.backbone(crops.flatten(0, 1)).flatten(1)
        return self.head(feats).view(x.size(0), self.parts, -1).mean(1)


def train(loader):
    model = PartNet().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, fused=True)
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        logits = model(images)  # want: AMP004
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train([])

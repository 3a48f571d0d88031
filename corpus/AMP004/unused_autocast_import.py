# gpuopt-env: target-gpu=h100
# `autocast` is imported but never used: the training step still runs in
# fp32, so it is reported (blind sample S26D's cloth-segmentation, a
# U2NET at 768x768 beside an unused `from torch.cuda.amp import autocast`).
import torch
import torch.nn as nn
from torch.cuda.amp import autocast


class Segmenter(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 256, 3, padding=1), nn.BatchNorm2d(256), nn.ReLU(),
            nn.Conv2d(256, 512, 3, padding=1), nn.BatchNorm2d(512), nn.ReLU(),
        )
        self.head = nn.Conv2d(512, classes, 1)

    def forward(self, x):
        return self.head(self.encoder(x))


def train(loader, steps=100000):
    model = Segmenter().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    criterion = nn.CrossEntropyLoss()
    for step, (image, label) in zip(range(steps), loader):
        image, label = image.cuda(), label.cuda()
        logits = model(image)  # want: AMP004
        loss = criterion(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train([])

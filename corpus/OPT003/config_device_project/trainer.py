# A trainer that places everything on `self.conf.device`, a device its
# configuration class sets to CUDA when a GPU is there (blind sample
# S35C's anti-spoofing trainers): convolutional training on that GPU.
import torch
import torch.nn as nn


class SpoofNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.Conv2d(128, 256, 3, stride=2, padding=1), nn.BatchNorm2d(256), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(256, 3)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class Trainer:
    def __init__(self, conf, loader):
        self.conf = conf
        self.loader = loader
        self.model = SpoofNet().to(self.conf.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=conf.lr, momentum=0.9, weight_decay=5e-4, fused=True)
        self.criterion = nn.CrossEntropyLoss()

    def train(self, epochs):
        for epoch in range(epochs):  # want: OPT003
            for imgs, labels in self.loader:
                imgs, labels = imgs.to(self.conf.device), labels.to(self.conf.device)
                loss = self.criterion(self.model(imgs), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

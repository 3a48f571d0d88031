import torch.nn as nn
import torch.nn.functional as F


class GenderNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(256, 1)

    def forward(self, x):
        return F.sigmoid(self.fc(self.features(x)))


class AgeNet(nn.Module):
    def __init__(self, n_ranges=8):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(256, n_ranges)

    def forward(self, x):
        return self.fc(self.features(x))

"""A PointNet feature extractor and a registration head: per-point 1x1
Conv1d layers with batch norm, a max pool, and a small MLP."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointNet(nn.Module):
    def __init__(self, emb_dims=1024):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, emb_dims, kernel_size=1)
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(64), nn.BatchNorm1d(128), nn.BatchNorm1d(emb_dims)

    def forward(self, points):  # (B, N, 3)
        x = points.transpose(1, 2)
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return F.relu(self.bn3(self.conv3(x))).max(dim=2).values


class PoseRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = PointNet()
        self.head = nn.Sequential(nn.Linear(2048, 1024), nn.ReLU(), nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 7))

    def forward(self, template, source):
        return self.head(torch.cat([self.features(template), self.features(source)], dim=1))

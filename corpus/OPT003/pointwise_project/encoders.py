import torch.nn as nn


class SharedMLP(nn.Module):
    """A point-cloud encoder: 1x1 convolutions over the points, then a max."""

    def __init__(self, feat_dims=512):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv1d(3, 64, 1),
            nn.ReLU(),
            nn.Conv1d(64, 128, 1),
            nn.ReLU(),
            nn.Conv1d(128, feat_dims, 1),
        )

    def forward(self, points):
        return self.layers(points).max(dim=2).values


class VoxelEncoder(nn.Module):
    """A 3x3x3 convolution over voxels: cuDNN has algorithms to choose."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(1, 32, 3, padding=1)

    def forward(self, voxels):
        return self.conv(voxels).flatten(1)

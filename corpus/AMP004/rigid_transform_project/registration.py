"""A point-cloud registration network: per-point features, soft
correspondences through attention, and a weighted Procrustes step that takes the SVD of the
cross-covariance its matmul builds."""
import torch
import torch.nn as nn


def weighted_procrustes(src, dst, weights):
    w = weights / (weights.sum(dim=1, keepdim=True) + 1e-6)
    src_mean = (src * w).sum(dim=1, keepdim=True)
    dst_mean = (dst * w).sum(dim=1, keepdim=True)
    cross = (src - src_mean).transpose(1, 2) @ ((dst - dst_mean) * w)
    u, _, v = torch.svd(cross)
    rotation = v @ u.transpose(1, 2)
    return rotation, dst_mean.squeeze(1) - (rotation @ src_mean.transpose(1, 2)).squeeze(2)


class PointFeatures(nn.Module):
    def __init__(self, width=1024):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, width, 1), nn.ReLU(), nn.Conv1d(width, width, 1))
        self.attend = nn.TransformerEncoderLayer(width, 16, 4096, batch_first=True)

    def forward(self, points):
        return self.attend(self.mlp(points.transpose(1, 2)).transpose(1, 2))


class Registration(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = PointFeatures()

    def forward(self, src, dst):
        fs, fd = self.features(src), self.features(dst)
        match = torch.softmax(fs @ fd.transpose(1, 2) / fs.shape[-1] ** 0.5, dim=-1)
        return weighted_procrustes(src, match @ dst, match.max(dim=-1, keepdim=True).values)

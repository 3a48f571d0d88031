import torch.nn as nn


def make_augmentations(size) -> nn.Module:
    return nn.Sequential(nn.Upsample(size=size), nn.Dropout(0.1))

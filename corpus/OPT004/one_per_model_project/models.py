import torch.nn as nn


def create(name):
    if name == "unet":
        return nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 1, 1))
    raise ValueError(name)

import torch.nn as nn


def projection_head(width):
    return nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 128))

"""A detector assembled from a configuration list: convolutions only,
built in a loop the walk cannot size."""
import torch
import torch.nn as nn


def create_modules(defs):
    layers, channels = nn.ModuleList(), 3
    for d in defs:
        block = nn.Sequential(nn.Conv2d(channels, d["filters"], d["size"], padding=d["size"] // 2), nn.BatchNorm2d(d["filters"]), nn.LeakyReLU(0.1))
        layers.append(block)
        channels = d["filters"]
    return layers


class Darknet(nn.Module):
    def __init__(self, defs):
        super().__init__()
        self.layers = create_modules(defs)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def load_model(defs):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Darknet(defs).to(device)
    return model

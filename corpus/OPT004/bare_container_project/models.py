import torch.nn as nn
import torchvision


class NetVLAD(nn.Module):
    def __init__(self, clusters=64, dim=512):
        super().__init__()
        self.conv = nn.Conv2d(dim, clusters, kernel_size=1)
        self.centroids = nn.Parameter(nn.init.normal_(nn.Parameter(nn.init.zeros_(nn.Linear(dim, clusters).weight)).data))

    def forward(self, x):
        soft = self.conv(x).softmax(1)
        return (soft.unsqueeze(2) * x.unsqueeze(1)).sum((-1, -2)).flatten(1)


def construct_model(clusters=64):
    """Encoder and pooling kept as children of a bare container, which
    the training loop calls one by one."""
    encoder = nn.Sequential(*list(torchvision.models.vgg16().features.children())[:-2])
    model = nn.Module()
    model.add_module("encoder", encoder)
    model.add_module("pool", NetVLAD(clusters))
    return model


class FullNetwork(nn.Module):
    def __init__(self, clusters=64):
        super().__init__()
        self.encoder = nn.Sequential(*list(torchvision.models.vgg16().features.children())[:-2])
        self.pool = NetVLAD(clusters)

    def forward(self, x):
        return self.pool(self.encoder(x))

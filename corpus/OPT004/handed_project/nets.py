import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.body(x)


def build(lr):
    net = Classifier().cuda()  # want: OPT004
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    return net, opt


def build_for_inspection():
    # Its callers only count its parameters.
    probe = Classifier().cuda()
    return probe

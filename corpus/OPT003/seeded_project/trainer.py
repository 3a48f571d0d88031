# gpuopt-env: target-gpu=h100
# The project asks for determinism in utils.same_seeds (called before
# training): cudnn.benchmark = True here would be switched off again, and
# is not what the author wants. Silent.
import torch
import torch.nn as nn

import utils


def train(loader, epochs=5):
    utils.same_seeds(2022)
    net = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(net(x.cuda()), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()

# A tagger whose loss comes from the project's losses module, picked by
# name through a factory or looked up at run time (blind sample S37I's
# DCASE 2017 baseline and a course project): the loss is a binary
# cross-entropy on sigmoid probabilities, which autocast refuses
# (RuntimeError). AMP004 says so and writes no wrap.
import torch
import torch.nn as nn

import losses
from losses import get_loss_func


class Tagger(nn.Module):
    def __init__(self, classes=17):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU())
        self.head = nn.Linear(4096, classes)

    def forward(self, x):
        return torch.sigmoid(self.head(self.body(x)))


def train(loader, loss_type="clip_bce", epochs=10):
    model = Tagger().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loss_func = get_loss_func(loss_type)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = loss_func(model(x), y)  # want: AMP004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_by_name(loader, config, epochs=10):
    model = Tagger().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loss_fn = getattr(losses, config["loss"])().cuda()
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = loss_fn(model(x), y)  # want: AMP004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

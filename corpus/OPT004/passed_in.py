"""The model is built in main() and trained by a function it is passed to."""
import torch
import torch.nn.functional as F
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 10))

    def forward(self, x):
        return self.body(x)


def fit(model, loader, optimizer):
    model.train()
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(loader):
    net = Classifier().cuda()  # want: OPT004
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(3):
        fit(net, loader, opt)
    return criterion


def step_loss(model, x, y):
    return F.cross_entropy(model(x.cuda()), y.cuda())


def fit_with_helper(model, loader, optimizer):
    for x, y in loader:
        loss = step_loss(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main_helper(loader, small):
    # Built in two branches: the finding sits on the last construction.
    if small:
        net = Classifier()
    else:
        net = Classifier().cuda()  # want: OPT004
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    fit_with_helper(net, loader, opt)

import torch
from torch import nn

model = nn.Linear(16, 4).cuda()


def with_no_grad(loader):
    model.eval()
    with torch.no_grad():
        for x in loader:
            model(x)


@torch.inference_mode()
def decorated(loader):
    model.eval()
    for x in loader:
        model(x)


def called_under_no_grad(loader):
    model.eval()
    for x in loader:
        model(x)


with torch.no_grad():
    called_under_no_grad([])


def saliency(loader):
    model.eval()
    for x in loader:
        x.requires_grad_(True)
        model(x).sum().backward()


def back_to_train(loader):
    model.eval()
    model.train()
    for x in loader:
        model(x)


def no_eval(loader):
    for x in loader:
        model(x)


def generator(loader):
    model.eval()
    for x in loader:
        yield model(x)


def other_model(loader, other):
    model.eval()
    for x in loader:
        other(x)


class Runner:
    def __init__(self, net, loader):
        self.net = net
        self.loader = loader

    def evaluate(self):
        self.net.eval()
        for x in self.loader:
            self.net(x)

    def fit(self):
        with torch.no_grad():
            self.evaluate()

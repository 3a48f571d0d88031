import torch
from torch import nn

from buffers import DataLoader
from engine import Fitter, evaluate, replay
from loaders import make_loader, make_plain_loader


def main(train_set, test_set):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(32, 10)
    fitter = Fitter(model, make_loader(train_set, 64), device)
    fitter.fit(torch.optim.SGD(model.parameters(), lr=0.1))
    evaluate(model, make_plain_loader(test_set, 256), device)
    replay(model, DataLoader(list(test_set), pin_memory=True), device)

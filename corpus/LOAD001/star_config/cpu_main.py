# Star-imports only a module that names no device: stays silent.
import torch
from torch.utils.data import DataLoader

from plain import *
from fit import fit


def main(model, dataset):
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=RATE)
    fit(model, torch.nn.functional.mse_loss, optimizer, loader, 10)

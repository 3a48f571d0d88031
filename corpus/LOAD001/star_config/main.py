# The script names no device: the settings module it star-imports targets
# CUDA, and fit() (fit.py) trains on what it gets.
import torch
from torch.utils.data import DataLoader

from settings import *
from fit import fit


def main(model, dataset):
    loader = DataLoader(dataset, batch_size=64, shuffle=True)  # want: LOAD001
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    fit(model, torch.nn.functional.mse_loss, optimizer, loader, 10)


# The loss indexes by a boolean mask (a nonzero: the host reads its size
# from the GPU every step), so the step waits for the GPU anyway and
# deferring the running total's .item() gains nothing (blind sample S16I's
# Pyraformer). A step without such a wait is reported.
import torch

from losses import MaskedGaussianLoss


def train_epoch(model, loader, optimizer):
    criterion = MaskedGaussianLoss()
    total = 0.0
    for x, y in loader:
        mu, sigma = model(x.cuda())
        loss = criterion(mu, sigma, y.cuda()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


def train_plain(model, loader, optimizer):
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.cuda())[0], y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()  # want: SYNC002
    return total

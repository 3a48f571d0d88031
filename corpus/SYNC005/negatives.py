import logging

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(list(range(10)), batch_size=2)
logger = logging.getLogger(__name__)


def train_guarded():
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        # Guarded: every 100 steps (the guide's "after").
        if step % 100 == 0:
            print(f"step {step}: loss {loss.item():.4f}")
        if step % 50 == 0:
            logger.info("loss %s", loss)
        # Any condition is left alone, even one that is not a step guard.
        if torch.isnan(loss).any():
            logger.error("nan loss %s", loss.item())


def train_no_tensor_read():
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        # Nothing read from the device.
        print(f"step {step}", x.shape, len(loader))
        logger.info("lr %s", optimizer.param_groups[0]["lr"])
        # NumPy values do not synchronise.
        arr = np.zeros(3)
        print(arr.item(0), np.ones(2).tolist())


def train_epoch(epoch):
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    return loss


def fit(epochs):
    # Once per epoch: the step loop is in train_epoch.
    for epoch in range(epochs):
        loss = train_epoch(epoch)
        print(f"epoch {epoch}: {loss.item():.4f}")
    # An epoch loop around the step loop.
    for epoch in range(epochs):
        for x, y in loader:
            loss = criterion(model(x.cuda()), y.cuda())
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


def not_hot(values):
    # Not a hot loop: no model, no backward, no DataLoader.
    for v in values:
        print(torch.tensor(v).item())


def shadowed():
    def print(*args):
        pass

    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        print(loss.item())

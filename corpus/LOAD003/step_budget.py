# Training by a step budget, not by epochs (optical flow, segmentation):
# `while total_steps < num_steps:` around the loader's loop, or next() on
# an iterator rebuilt with iter() inside the step loop when it runs out
# (gmflow, PWC-Net, DeepLab): such budgets train on datasets whose passes
# run for minutes, where a restart of the workers is under 1%. Nothing is
# reported, even over tensors held in memory here; an epoch loop keeps the
# finding, also where it rebuilds the iterator at the top of every epoch.
import torch
from torch.utils.data import DataLoader, TensorDataset


def train_budget(model, optimizer, x1, x2, flows, num_steps):
    loader = DataLoader(TensorDataset(x1, x2, flows), batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    total_steps = 0
    while total_steps < num_steps:
        for img1, img2, flow in loader:
            loss = model(img1.cuda(non_blocking=True), img2.cuda(non_blocking=True), flow.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_steps += 1


def train_iterations(model, optimizer, x, y, total_step):
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    data_iter = iter(loader)
    for step in range(total_step):
        try:
            img, target = next(data_iter)
        except StopIteration:
            data_iter = iter(loader)
            img, target = next(data_iter)
        loss = model(img.cuda(non_blocking=True), target.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_epochs(model, optimizer, x, y, epochs):
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
    for epoch in range(epochs):
        for xb, yb in loader:
            loss = model(xb.cuda(non_blocking=True), yb.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_epoch_iterators(model, optimizer, x, y, epochs):
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
    for epoch in range(epochs):
        data_iter = iter(loader)
        for step in range(len(loader)):
            xb, yb = next(data_iter)
            loss = model(xb.cuda(non_blocking=True), yb.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

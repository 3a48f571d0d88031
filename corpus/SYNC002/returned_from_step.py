# A training step helper that returns its loss as a number
# (`return loss.item()`), called on every step of a loop that only sums
# the numbers, appends them to a list it reads after the loop, logs them
# every few steps or drops them: each call waits for the GPU to finish
# the step for a number the loop needs later or never. Reported at the
# helper's `.item()` as a hint (every caller would receive a tensor).
# Silent where the loop reads the number on every step (a progress bar,
# an early stop), where the helper syncs anyway, where the helper runs a
# whole epoch, and where the helper is called once.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(2048, 4096), nn.GELU(), nn.Linear(4096, 1000)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)


def train_step(x, y):
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()  # want: SYNC002


def fit(loader, epochs):
    for epoch in range(epochs):
        total = 0.0
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            total += train_step(x, y)
        print(f"epoch {epoch}: {total / len(loader):.4f}")


class Trainer:
    def __init__(self, net, opt):
        self.net = net
        self.opt = opt
        self.history = []

    def step(self, x, y):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.net(x), y)
        loss.backward()
        self.opt.step()
        return loss.item()  # want: SYNC002

    def fit(self, loader):
        for i, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            value = self.step(x, y)
            if i % 100 == 0:
                print(f"step {i}: {value:.4f}")


def shown_step(x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def fit_with_bar(bar):
    for x, y in bar:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        bar.set_postfix(loss=shown_step(x, y))


def stopping_step(x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def fit_until(loader, eps=1e-3):
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        value = stopping_step(x, y)
        if value < eps:
            break


def checked_step(x, y):
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    correct = (logits.argmax(1) == y).sum().item()
    return loss.item()


def fit_checked(loader):
    losses = []
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        losses.append(checked_step(x, y))
    return sum(losses) / len(losses)


def train_epoch(loader):
    total = 0.0
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total.item()


def fit_epochs(loader, epochs):
    history = []
    for epoch in range(epochs):
        history.append(train_epoch(loader))
    return history


def warm_up_step(x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def warm_up(loader):
    x, y = next(iter(loader))
    return warm_up_step(x.to(device), y.to(device))

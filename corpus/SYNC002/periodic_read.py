"""A running loss read and reset every N steps for logging: the host needs
it at the read, not at every step."""
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_epoch(model, loader, optimizer, log_every=50):
    model.train()
    running = 0.0
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()  # want: SYNC002
        if step % log_every == log_every - 1:
            print(f"step {step}: {running / log_every:.3f}")
            running = 0.0


def train_until(model, loader, optimizer, eps=1e-3):
    # Silent: the loss decides when to stop, every step.
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if loss.item() < eps:
            break


def train_best(model, loader, optimizer):
    # Silent: the running total decides a branch inside the loop.
    model.train()
    total = 0.0
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        if total > 1e6:
            break


def train_logged_loss(model, loader, optimizer, log_every=100):
    # The step's own loss is printed every N steps only: the running total
    # still costs a sync on every step.
    model.train()
    total = 0.0
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()  # want: SYNC002
        if step % log_every == 0:
            print(f"step {step}: loss {loss.item():.3f}, mean so far {total / (step + 1):.3f}")
    return total

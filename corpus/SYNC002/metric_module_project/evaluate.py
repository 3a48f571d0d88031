"""An evaluation loop whose metric, in a sibling module, copies the
logits to the host every step: the .item() beside it costs no extra wait."""
import torch
import torch.nn as nn

import metrics

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4096, 4096).to(device)
loss_fn = nn.CrossEntropyLoss()


def evaluate(loader):
    model.eval()
    total_loss, total_acc = 0.0, 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            total_loss += loss_fn(logits, y).item()
            total_acc += metrics.accuracy(logits, y)
    return total_loss / len(loader), total_acc / len(loader)


def train(loader, opt):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()  # want: SYNC002
    return total / len(loader)

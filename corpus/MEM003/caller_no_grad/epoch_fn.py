# The evaluation loop runs with autograd on here, but its only caller, in
# main.py, calls it under torch.no_grad(): silent.
import torch


def valid_one_epoch(model, loader, loss_fn):
    model.eval()
    total = 0.0
    for x, y in loader:
        total += loss_fn(model(x.cuda()), y.cuda()).item()
    return total / len(loader)

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
criterion = nn.MSELoss()
# (The datasets live on the GPU: evaluation passes over a loader of host
# samples are left alone, see evaluation_over_loader.py.)
loader = DataLoader(TensorDataset(torch.randn(64, 4096, device="cuda"), torch.randn(64, 4096, device="cuda")), batch_size=8)


def check_accuracy(model, loader):
    # An evaluation pass that appends several metrics as numbers on every
    # batch: those waits stay (SYNC002 reports appends only in training
    # loops), so deferring the one running total would gain nothing.
    losses, errors = [], []
    total_items = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            out = model(x)
            losses.append(criterion(out, y).item())
            errors.append((out - y).abs().max().item())
            total_items += (out > 0).sum().item()
    return sum(losses) / len(losses), max(errors), total_items


def count_positive(model, loader):
    # The same pass with nothing else read back: the total's .item() is
    # the only wait of the step.
    total_items = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            out = model(x.cuda())
            total_items += (out > 0).sum().item()  # want: SYNC002
    return total_items


print(check_accuracy(model, loader), count_positive(model, loader))

# An optimizer built, never read, and built again a few lines later: only
# the one that steps is reported. Alternatives in the branches of an `if`
# are each reported.
import torch
import torch.nn as nn


def main(loader, lr=1e-3, kind="adamw"):
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    print(sum(p.numel() for p in model.parameters()))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)  # want: OPT001
    if kind == "adam":
        other = torch.optim.Adam(model.parameters(), lr=lr)  # want: OPT001
    else:
        other = torch.optim.AdamW(model.parameters(), lr=lr)  # want: OPT001
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = (model(x) - y).pow(2).mean()
        optimizer.zero_grad()
        other.zero_grad()
        loss.backward()
        optimizer.step()
        other.step()

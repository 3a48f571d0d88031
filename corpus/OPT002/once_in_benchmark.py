# gpuopt-env: torch=1.13
# A one-off benchmark zeroes a fresh optimizer once, before any backward:
# the gradients are still None and set_to_none saves nothing (blind
# sample S16I's Pyraformer). The training loop's zero_grad() is reported.
import torch
import torch.nn as nn


def benchmark(layer):
    optimizer = torch.optim.Adam(layer.parameters(), 1e-4)
    optimizer.zero_grad()
    out = layer(torch.ones(4, 512, device="cuda"))
    out.sum().backward()
    optimizer.step()


def train(model, loader):
    optimizer = torch.optim.Adam(model.parameters(), 1e-4)
    for x, y in loader:
        optimizer.zero_grad()  # want: OPT002
        nn.functional.mse_loss(model(x.cuda()), y.cuda()).backward()
        optimizer.step()


if __name__ == "__main__":
    benchmark(nn.Linear(512, 512).cuda())
    train(nn.Linear(512, 512).cuda(), [])

# gpuopt-env: target-gpu=h100
# A loss wrapper that keeps its losses in an nn.ModuleList and wraps the
# list in DataParallel (blind sample S17A's RCAN): a ModuleList has no
# forward, the wrapper is never called, and the losses run unwrapped from
# the list beside it. The model's own DataParallel is reported.
import torch
import torch.nn as nn


class Loss(nn.Module):
    def __init__(self, n_gpus):
        super().__init__()
        self.loss = [{"weight": 1.0, "function": nn.L1Loss()}, {"weight": 0.1, "function": nn.MSELoss()}]
        self.loss_module = nn.ModuleList()
        for entry in self.loss:
            self.loss_module.append(entry["function"])
        self.loss_module.to(torch.device("cuda"))
        if n_gpus > 1:
            self.loss_module = nn.DataParallel(self.loss_module, range(n_gpus))

    def forward(self, sr, hr):
        return sum(entry["weight"] * entry["function"](sr, hr) for entry in self.loss)


def train(model, loader, n_gpus=2):
    model = nn.DataParallel(model.cuda(), range(n_gpus))  # want: OPT005
    loss = Loss(n_gpus)
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for lr, hr in loader:
        out = model(lr.cuda())
        total = loss(out, hr.cuda())
        optimizer.zero_grad()
        total.backward()
        optimizer.step()

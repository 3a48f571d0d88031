# gpuopt-env: torch=1.13
# An attack's optimizer steps one perturbation tensor (`optim.SGD([delta],
# ...)`): its zero_grad() zeroes one gradient, where set_to_none saves
# nothing worth a finding. Silent. The model's optimizer is reported.
import torch
import torch.nn.functional as F
from torch import optim


def trades_perturb(model, x, eps=0.5, steps=10):
    delta = (0.001 * torch.randn_like(x)).requires_grad_(True)
    optimizer_delta = optim.SGD([delta], lr=eps / steps * 2)
    target = F.softmax(model(x), dim=1).detach()
    for _ in range(steps):
        optimizer_delta.zero_grad()
        loss = -F.kl_div(F.log_softmax(model(x + delta), dim=1), target, reduction="sum")
        loss.backward()
        optimizer_delta.step()
    return delta.detach()


def train(model, loader):
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        x_adv = x + trades_perturb(model, x)
        optimizer.zero_grad()  # want: OPT002
        F.cross_entropy(model(x_adv), y).backward()
        optimizer.step()

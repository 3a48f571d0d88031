import torch

from data import get_stats_loader


def mean_of(dataset):
    total = torch.zeros(8)
    for x, _ in get_stats_loader(dataset):
        total += x.sum(0)
    return total / len(dataset)


def fit_on_cpu(model, dataset):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = get_stats_loader(dataset)
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()

# Tensors built once while the program sets up: at module level, in a
# model's __init__ and in main(), in no loop. Their copy costs
# microseconds once (a scalar, a few node embeddings' initial values, an
# adjacency read from disk: torch.tensor copies host data either way).
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n = torch.tensor([7]).cuda()
adj = torch.tensor(np.eye(207)).to(device)


class GraphNet(nn.Module):
    def __init__(self, num_nodes, dim=10):
        super().__init__()
        self.nodevec = nn.Parameter(torch.randn(num_nodes, dim).to(device))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x) @ self.nodevec.t()


def main():
    supports = [torch.tensor(a).to(device) for a in [np.eye(4), np.ones((4, 4))]]
    # Built once: 4096 x 4096 random numbers take ~140 ms on the CPU
    # before the copy, once in a run: nothing worth a finding.
    once = torch.randn(4096, 4096).to(device)
    # Half a billion random numbers take seconds on the CPU: worth
    # building on the device even once.
    big = torch.randn(16384, 32768).to(device)  # want: XFER001
    return supports, once, big


class CausalMask:
    # Not a module: built by the attention's forward on every step.
    def __init__(self, length):
        self.mask = torch.ones(length, length).to(device).triu(1)  # want: XFER001


class Attention(nn.Module):
    def forward(self, q, k):
        mask = CausalMask(q.size(1)).mask
        return (q @ k.transpose(1, 2)).masked_fill(mask.bool(), float("-inf"))


def evaluate(model, loader):
    # Set-up before the function's own batch loop: once per call.
    weights = torch.tensor([1.0, 2.0, 3.0]).to(device)
    scores = []
    for x, y in loader:
        scores.append((model(x.to(device)) * weights).sum())
    return scores


def noise_like(x):
    return torch.randn(x.shape).to(device)  # want: XFER001


def train(model, loader, opt, epochs):
    for epoch in range(epochs):
        # Once per epoch, outside the batch loop.
        state = torch.zeros(2, 64).to(device)
        for x, y in loader:
            x = x.to(device) + noise_like(x)
            loss = (model(x) - y.to(device)).pow(2).mean() + state.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        evaluate(model, loader)


# A model builder runs one forward to initialise lazy parameters; an
# ensemble builds several in a loop over their names. Set-up, not a step:
# silent.
def build_predictor(in_channels, device):
    predictor = nn.Sequential(nn.LazyConv2d(32, 3), nn.Flatten(), nn.LazyLinear(10))
    x = torch.rand((2, in_channels, 64, 64)).to(device)
    predictor.to(device)
    predictor(x)
    return predictor


def build_ensemble(names, device):
    predictors = []
    for name in names:
        predictors.append(build_predictor(3, device))
    return predictors

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
    # Large and built once: 4096 x 4096 random numbers filled on the CPU
    # take ~140 ms before the copy, worth building on the device.
    big = torch.randn(4096, 4096).to(device)  # want: XFER001
    return supports, big

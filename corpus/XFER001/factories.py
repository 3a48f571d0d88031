import torch

device = torch.device("cuda")
n = 16


def step():
    # Built on every call: each tensor is filled on the CPU, then copied.
    mask = torch.zeros(n, n).to(device)  # want: XFER001
    ones = torch.ones(n, dtype=torch.float16).cuda()  # want: XFER001
    idx = torch.arange(n).to("cuda:0")  # want: XFER001
    # Not torch.tensor(data): device= copies the same host data (1.00-1.02×).
    table = torch.tensor([1, 2, 3]).cuda(0)
    eye = torch.eye(n).to(device=device).float()  # want: XFER001
    full = torch.full(  # want: XFER001
        (n, n),
        0.5,
    ).to(device)
    noise = torch.randn(4, n).to(device)  # want: XFER001
    ints = torch.randint(0, 10, (n,)).cuda()  # want: XFER001
    gauss = torch.normal(0.0, 1.0, (n,)).cuda()  # want: XFER001
    return mask, ones, idx, table, eye, full, noise, ints, gauss


def make(x, device):
    return torch.empty(x.shape).to(device)  # want: XFER001


for _ in range(100):
    # MoCo's batch shuffle: a random permutation built on the CPU every step.
    idx_shuffle = torch.randperm(256).cuda()  # want: XFER001

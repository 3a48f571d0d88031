import torch

device = torch.device("cuda")


def positions_of(length):
    steps = torch.arange(0, 1, 0.1).to(device)  # want: XFER001
    positions = torch.arange(0, length).to(device)  # want: XFER001
    return steps, positions

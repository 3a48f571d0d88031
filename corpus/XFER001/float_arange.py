import torch

device = torch.device("cuda")
steps = torch.arange(0, 1, 0.1).to(device)  # want: XFER001
positions = torch.arange(0, 128).to(device)  # want: XFER001

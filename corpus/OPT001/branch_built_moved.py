# The model is built on one of two branches, then moved once for both.
import torch
from torch import nn


def finetune(small):
    if small:
        model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
        device = "cpu"
    else:
        model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.out = nn.Linear(2, 2)
    model.to(device)
    return torch.optim.AdamW(model.parameters(), lr=5e-5)  # want: OPT001


def finetune_moved_on_one_branch(small):
    if small:
        model = nn.Linear(8, 2)
    else:
        model = nn.Linear(512, 2)
        model.cuda()
    # Small models stay on the CPU.
    return torch.optim.AdamW(model.parameters(), lr=5e-5)

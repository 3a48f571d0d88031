import torch
from torch import nn

CONFIG = {"device": torch.device("cuda:0"), "lr": 1e-3}


def build_from_config():
    # The device comes from a config dict.
    model = nn.Linear(8, 2).to(CONFIG["device"])
    return torch.optim.AdamW(model.parameters(), lr=CONFIG["lr"])  # want: OPT001


def build_on(gpu_id: int):
    # The device is an ordinal passed down from the caller.
    model = nn.Linear(8, 2).to(gpu_id)
    return torch.optim.Adam(model.parameters())  # want: OPT001


if __name__ == "__main__":
    device = 0
    build_on(device)
    build_from_config()

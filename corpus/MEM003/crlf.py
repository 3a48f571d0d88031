import torch
from torch import nn

model = nn.Linear(2, 2)


def run(loader):
    model.eval()
    for x in loader:  # want: MEM003
        model(x)

        torch.cuda.empty_cache()

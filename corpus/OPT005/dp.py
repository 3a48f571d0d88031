import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

model = nn.DataParallel(nn.Linear(8, 2)).cuda()  # want: OPT005
model2 = torch.nn.parallel.DataParallel(nn.Linear(8, 2))  # want: OPT005


class DataParallel:
    def __init__(self, m):
        self.m = m


# A local class and DDP are fine.
model3 = DataParallel(nn.Linear(8, 2))

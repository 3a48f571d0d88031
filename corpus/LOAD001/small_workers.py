"""A loader with one worker (the classic `'num_workers': 1` of the MNIST
example) is raised to the training host's count, 4 batches ahead; `os` is
already imported and is reused. Four workers or more are left alone."""
from __future__ import annotations

import os

import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(64, 8), torch.randn(64, 2))
model = torch.nn.Linear(8, 2).cuda()
one = DataLoader(dataset, batch_size=8, num_workers=1, pin_memory=True)  # want: LOAD001
four = DataLoader(dataset, batch_size=8, num_workers=4, pin_memory=True)
for loader in range(3):
    for x, y in one:
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
    for x, y in four:
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
print(os.getcwd())

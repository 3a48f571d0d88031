"""A loader with one worker (the classic `'num_workers': 1` of the MNIST
example) is raised to the training host's count, 4 batches ahead; `os` is
already imported and is reused. Four workers or more are left alone. The
images are decoded from files, the work workers take off the main process."""
from __future__ import annotations

import os

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

dataset = datasets.ImageFolder("data/train", transform=transforms.ToTensor())
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

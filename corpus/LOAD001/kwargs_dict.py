# The settings of pytorch/examples' MNIST: a dict merged into the loader's
# keyword arguments. Its one worker is raised, with a prefetch factor.
import argparse

import torch
import torch.nn.functional as F
from torchvision import datasets, transforms

device = torch.device("cuda")
train_kwargs = {'batch_size': 64}
accel_kwargs = {'num_workers': 1,  # want: LOAD001
                'persistent_workers': True,
               'pin_memory': True,
               'shuffle': True}
train_kwargs.update(accel_kwargs)
dataset1 = datasets.MNIST('../data', train=True, download=True, transform=transforms.ToTensor())
train_loader = torch.utils.data.DataLoader(dataset1, **train_kwargs)
model = torch.nn.Linear(784, 10).to(device)
optimizer = torch.optim.Adadelta(model.parameters())
for data, target in train_loader:
    data, target = data.to(device), target.to(device)
    loss = F.nll_loss(model(data.flatten(1)), target)
    loss.backward()
    optimizer.step()

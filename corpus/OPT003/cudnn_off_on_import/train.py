"""A CRNN-style convolutional model trained at fixed shapes: benchmark mode
would pay, but the imported evaluation module switched cuDNN off at import,
so it has nothing to choose. No OPT003."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from evaluate import accuracy

model = nn.Sequential(nn.Conv2d(1, 64, 3), nn.ReLU(), nn.Conv2d(64, 128, 3), nn.Flatten(), nn.LazyLinear(37)).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(datasets.ImageFolder("words", transform=transforms.ToTensor()), batch_size=64, num_workers=4)
for epoch in range(10):
    model.train()
    for images, labels in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(images.cuda()), labels.cuda()).backward()
        opt.step()
    print(accuracy(model, loader))

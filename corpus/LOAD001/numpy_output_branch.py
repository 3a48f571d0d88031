"""The output goes to NumPy without .cpu() only in the branch for hosts
without a GPU; with one, the loop moves the batches and copies the output
back first. The loader feeds the GPU loop."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

use_cuda = torch.cuda.is_available()


def main():
    data = datasets.CIFAR10("data", download=True, transform=transforms.ToTensor())
    loader = DataLoader(data, shuffle=True, batch_size=64)  # want: LOAD001
    model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 10))
    if use_cuda:
        model = model.cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    for epoch in range(30):
        guesses = []
        for x, y in loader:
            if use_cuda:
                x, y = x.cuda(), y.cuda()
            out = model(x)
            loss = F.cross_entropy(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if use_cuda:
                guesses.append(np.argmax(out.data.cpu().numpy(), 1))
            else:
                guesses.append(np.argmax(out.data.numpy(), 1))


if __name__ == "__main__":
    main()

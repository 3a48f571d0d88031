# gpuopt-env: cpus=16
# The loader iterated through a progress bar bound to a name first.
import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from tqdm import tqdm

device = torch.device("cuda")
model = nn.Linear(784, 10).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader):
    bar = tqdm(loader, total=len(loader))
    for x, y in bar:
        loss = nn.functional.cross_entropy(model(x.flatten(1).to(device)), y.to(device))
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    data = datasets.MNIST("data", download=True, transform=transforms.ToTensor())
    loader = DataLoader(data, batch_size=64)  # want: LOAD001
    for epoch in range(3):
        train(loader)

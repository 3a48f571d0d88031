# gpuopt-env: cpus=16
# Scripts that train when imported (no __main__ guard): worker processes
# started by spawn or forkserver (Linux's default from Python 3.14) import
# the script again and train in there, so the fix starts them with fork.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
data = datasets.FashionMNIST("data", download=True, transform=transforms.ToTensor())
loader = DataLoader(data, batch_size=128, shuffle=True)  # want: LOAD001
net = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.Adam(net.parameters())
for epoch in range(2):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(net(x.flatten(1).to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()


def fit(model, dataset):
    batches = DataLoader(dataset, batch_size=128)  # want: LOAD001
    for x, y in batches:
        torch.nn.functional.cross_entropy(model(x.flatten(1).to(device)), y.to(device)).backward()


def main():
    fit(net, data)


main()  # runs fit's loop at import time too

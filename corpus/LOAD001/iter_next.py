# gpuopt-env: cpus=16
# Batches drawn with next() from an iterator of the loader: the loop runs
# a fixed number of steps and starts a new pass when one runs out.
import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = "cuda" if torch.cuda.is_available() else "cpu"
data = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
loader = DataLoader(data, batch_size=64, shuffle=True)  # want: LOAD001
net = nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

if __name__ == "__main__":
    batches = iter(loader)
    for step in range(1000):
        if (step + 1) % len(loader) == 0:
            batches = iter(loader)
        x, y = next(batches)
        loss = nn.functional.cross_entropy(net(x.flatten(1).to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()

    # A new iterator for every batch: workers would start again at each step,
    # so adding them would make this loop slower. Silent.
    probe = DataLoader(data, batch_size=64, shuffle=True)
    for step in range(10):
        x, y = next(iter(probe))
        loss = nn.functional.cross_entropy(net(x.flatten(1).to(device)), y.to(device))
        loss.backward()

    # An iterator drawn from outside any training loop: silent.
    peek = DataLoader(data, batch_size=8)
    first_x, first_y = next(iter(peek))
    sample = iter(peek)
    print(next(sample)[0].shape)

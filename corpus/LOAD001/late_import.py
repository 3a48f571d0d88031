# gpuopt-env: cpus=16
# A tutorial that imports as it goes: os is imported below the loader, so
# the fix imports it again where the module's opening imports end.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets

device = torch.device("cuda")
data = datasets.MNIST("d", download=True)
loader = DataLoader(data, batch_size=64)  # want: LOAD001
net = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
if __name__ == "__main__":
    for x, y in loader:
        torch.nn.functional.cross_entropy(net(x.to(device)), y.to(device)).backward()
        opt.step()

    import os
    print(os.getcwd())

# gpuopt-env: cpus=16 torch=1.1
# A script that trains when imported, pinned to torch 1.1 (blind sample
# S21G's ECEC247 notebook): its DataLoader has no multiprocessing_context
# (torch 1.2 added it), so the fix that starts workers with fork would
# raise TypeError. Reported without a fix: the loop belongs under a
# __main__ guard first.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
data = datasets.ImageFolder("data/train", transform=transforms.ToTensor())
loader = DataLoader(data, batch_size=128, shuffle=True)  # want: LOAD001
net = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(net(x.view(x.size(0), -1).to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()

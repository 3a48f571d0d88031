import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from evaluate import test_img

tf = transforms.ToTensor()
train_set = datasets.MNIST("data", train=True, download=True, transform=tf)
test_set = datasets.ImageFolder("data/test", transform=tf)
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 2048), nn.ReLU(), nn.Linear(2048, 10)).cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
for rnd in range(10):
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
print("test accuracy", test_img(net, test_set, 128))

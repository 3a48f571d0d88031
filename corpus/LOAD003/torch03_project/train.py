# gpuopt-env: target-gpu=h100
# The training script of a PyTorch 0.3 project (loss.data[0]).
import torch
import torch.nn as nn
from torch.autograd import Variable

from data import get_loader

net = nn.Sequential(nn.Linear(2048, 4096), nn.ReLU(), nn.Linear(4096, 3000)).cuda()
optimizer = torch.optim.Adam(net.parameters())
loader = get_loader(100000)
for epoch in range(50):
    for v, a in loader:
        v, a = Variable(v.cuda()), Variable(a.cuda())
        loss = (net(v) - a).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(loss.data[0])

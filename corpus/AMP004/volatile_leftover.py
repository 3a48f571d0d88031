# gpuopt-env: target-gpu=h100
# Code ported to PyTorch 0.4 that kept `Variable(..., volatile=True)` in
# its evaluation, now inside `with torch.no_grad():` (2s-AGCN's main.py):
# the volatile flag does nothing there, and `.item()` and torch.no_grad
# say the script runs on 0.4 or later. Its training step is reported
# like any other.
import torch
import torch.nn as nn
from torch.autograd import Variable

model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 10)).cuda()
torch.backends.cudnn.benchmark = True
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)


def train(loader):
    model.train()
    losses = []
    for data, label in loader:
        data = Variable(data.cuda(), requires_grad=False)
        label = Variable(label.cuda(), requires_grad=False)
        output = model(data)  # want: AMP004
        loss = criterion(output, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
    return torch.stack(losses).mean().item()


def evaluate(loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, label in loader:
            data = Variable(data.cuda(), volatile=True)
            correct += (model(data).argmax(1) == label.cuda()).sum()
    return correct.item()

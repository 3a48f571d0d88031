# gpuopt-env: target-gpu=h100
# PyTorch 0.3 code (loss.data[0]): its evaluation turns autograd off with
# Variable(..., volatile=True), and torch.no_grad does not exist there
# (0.4). No finding.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()


def evaluate(loader):
    model.eval()
    total = 0
    for x, y in loader:
        x, y = Variable(x, volatile=True).cuda(), Variable(y, volatile=True).cuda()
        loss = F.cross_entropy(model(x), y)
        total += loss.data[0]
    return total

# gpuopt-env: target-gpu=h100
# A project written for PyTorch 0.3: Variable(..., volatile=True) and
# loss.data[0] (both gone in 0.4/0.5). It is checked as PyTorch 0.3,
# where factories take no `device=` (TypeError): no XFER001 here, nor in
# main.py, which imports this module.
import torch
from torch.autograd import Variable


def train(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        total_loss = 0
        for v, q, a in loader:
            v, q, a = Variable(v).cuda(), Variable(q).cuda(), Variable(a).cuda()
            scores = torch.zeros(*a.size()).cuda()
            loss = (model(v, q) - a).pow(2).mean() + scores.sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.data[0] * v.size(0)
        print(epoch, total_loss)


def evaluate(model, loader):
    for v, q, a in loader:
        v = Variable(v, volatile=True).cuda()
        q = Variable(q, volatile=True).cuda()
        model(v, q)

# gpuopt-env: target-gpu=h100
# The step's outputs are replaced by their argmax before they reach
# scikit-learn through .numpy(): integers, which bf16 never touches. The
# wrap needs no .float() there and is offered.
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import accuracy_score

model = nn.Sequential(nn.Linear(2048, 4096), nn.GELU(), nn.Linear(4096, 1000)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)


def train(loader):
    model.train()
    scores = []
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        optimizer.zero_grad()
        y_ = model(x)  # want: AMP004
        loss = F.cross_entropy(y_, y)
        loss.backward()
        optimizer.step()
        y_ = y_.argmax(dim=1)
        scores.append(accuracy_score(y_.cpu().numpy(), y.cpu().numpy()))
    return scores


def train_scored(loader):
    model.train()
    scores = []
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        optimizer.zero_grad()
        y_ = model(x)  # want: AMP004
        loss = F.cross_entropy(y_, y)
        loss.backward()
        optimizer.step()
        y_ = y_.argmax(dim=1)
        acc = accuracy_score(y_.cpu().numpy(), y.cpu().numpy())
        scores.append(acc)
    return scores

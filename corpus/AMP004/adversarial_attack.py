# gpuopt-env: target-gpu=h100
# A robustness evaluation: the PGD loop calls backward() only for the
# gradient of its input (X_adv.grad) and steps no optimizer of the
# network's parameters. It is not a training step: under bf16 autocast its
# perturbations, and the robust accuracy it reports, would change (blind
# sample S14H's TRADES). The adversarial training step below is one.
import torch
import torchvision
from torch import nn, optim

model = torchvision.models.resnet50(num_classes=10).cuda()
criterion = nn.CrossEntropyLoss()


def pgd_eval(X, y, steps=20, eps=8 / 255, alpha=2 / 255):
    model.eval()
    X_adv = X.clone().requires_grad_(True)
    for _ in range(steps):
        opt = optim.SGD([X_adv], lr=1e-3)
        opt.zero_grad()
        loss = criterion(model(X_adv), y)
        loss.backward()
        X_adv = (X_adv + alpha * X_adv.grad.sign()).clamp(X - eps, X + eps).detach().requires_grad_(True)
    return (model(X_adv).argmax(1) != y).float().sum()


def train(loader, optimizer):
    model.train()
    for X, y in loader:
        X, y = X.cuda(), y.cuda()
        optimizer.zero_grad()
        loss = criterion(model(X), y)  # want: AMP004
        loss.backward()
        optimizer.step()

# gpuopt-env: target-gpu=h100
# Two attack loops a training step calls: a PGD whose perturbation reaches
# the network added to the input (`model(normalize(X + delta))`), and an l2
# attack whose optimizer, built before the loop, steps the perturbation
# alone (`optim.SGD([delta], ...)`). Neither is a training step: their
# backward serves the input, and bf16 would change the perturbations (blind
# sample S20E). The adversarial training step is one.
import torch
import torch.nn.functional as F
import torchvision
from torch import optim

model = torchvision.models.wide_resnet50_2(num_classes=10).cuda()
mu = torch.tensor([0.49, 0.48, 0.45], device="cuda").view(3, 1, 1)


def normalize(X):
    return X - mu


def attack_pgd(X, y, eps=8 / 255, alpha=2 / 255, iters=10):
    delta = torch.zeros_like(X).uniform_(-eps, eps)
    delta.requires_grad = True
    for _ in range(iters):
        loss = F.cross_entropy(model(normalize(X + delta)), y)
        loss.backward()
        delta.data = (delta + alpha * delta.grad.sign()).clamp(-eps, eps)
        delta.grad.zero_()
    return delta.detach()


def attack_l2(X, eps=0.5, steps=10):
    delta = (0.001 * torch.randn_like(X)).requires_grad_(True)
    optimizer_delta = optim.SGD([delta], lr=eps / steps * 2)
    target = F.softmax(model(X), dim=1).detach()
    for _ in range(steps):
        optimizer_delta.zero_grad()
        loss = -F.kl_div(F.log_softmax(model(X + delta), dim=1), target, reduction="sum")
        loss.backward()
        delta.grad.div_(delta.grad.flatten(1).norm(dim=1).view(-1, 1, 1, 1) + 1e-12)
        optimizer_delta.step()
        delta.data.renorm_(p=2, dim=0, maxnorm=eps)
    return delta.detach()


def train(loader, optimizer):
    model.train()
    for X, y in loader:
        X, y = X.cuda(), y.cuda()
        X_adv = X + attack_pgd(X, y) + attack_l2(X)  # want: AMP004
        optimizer.zero_grad()
        loss = F.cross_entropy(model(normalize(X_adv)), y)
        loss.backward()
        optimizer.step()

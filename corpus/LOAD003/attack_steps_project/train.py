# Adversarial training: every batch costs eleven forward and backward
# passes (pgd_loss, another module), so an epoch runs for minutes and a
# worker restart per epoch is well under 1%. Silent for both loaders
# (blind sample S33B's TRADES and MART).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from attack import pgd_loss

device = torch.device("cuda")
train_set = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
test_set = datasets.CIFAR10("data", train=False, transform=transforms.ToTensor())
train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
test_loader = DataLoader(test_set, batch_size=256, num_workers=4, pin_memory=True)
model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(64 * 32 * 32, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
for epoch in range(100):
    model.train()
    for data, target in train_loader:
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = pgd_loss(model, data, target)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for data, target in test_loader:
            model(data.to(device, non_blocking=True))

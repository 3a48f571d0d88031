# gpuopt-env: torch=2.4
# An ImageNet image folder: an epoch of 1.28M images runs for minutes, and
# restarting the workers (a second or two) is under 1% of it. The CIFAR
# loader beside it has epochs of seconds: reported.
import argparse

import torch
import torchvision
from torchvision import datasets, transforms

parser = argparse.ArgumentParser(description="PyTorch ImageNet Training")
parser.add_argument("data", help="path to the ImageNet folder")
parser.add_argument("--workers", type=int, default=16)
args = parser.parse_args()

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_set = datasets.ImageFolder(args.data + "/train", transforms.ToTensor())
train_loader = torch.utils.data.DataLoader(train_set, batch_size=256, shuffle=True, num_workers=16, pin_memory=True)
cifar = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
cifar_loader = torch.utils.data.DataLoader(cifar, batch_size=256, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003

for epoch in range(90):
    for images, target in train_loader:
        loss = torch.nn.functional.cross_entropy(model(images.cuda(non_blocking=True)), target.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for images, target in cifar_loader:
        loss = torch.nn.functional.cross_entropy(model(images.cuda(non_blocking=True)), target.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

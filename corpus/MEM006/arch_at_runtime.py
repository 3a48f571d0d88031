# gpuopt-env: target-gpu=h100
# The ImageNet example's shape: the architecture comes from the command
# line, the model is built on one of two branches, wrapped in DataParallel,
# and trained by a function it is handed to.
import argparse

import torch
import torch.nn as nn
import torchvision.models as models

parser = argparse.ArgumentParser()
parser.add_argument("-a", "--arch", default="resnet18")
parser.add_argument("--pretrained", action="store_true")


def train(loader, model, criterion, optimizer):
    model.train()
    for images, target in loader:
        images = images.cuda(non_blocking=True)
        target = target.cuda(non_blocking=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            output = model(images)
            loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(loader):
    args = parser.parse_args()
    if args.pretrained:
        model = models.__dict__[args.arch](pretrained=True)  # want: MEM006
    else:
        model = models.__dict__[args.arch]()  # want: MEM006
    model = nn.DataParallel(model).cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), 0.1)
    for epoch in range(90):
        train(loader, model, criterion, optimizer)

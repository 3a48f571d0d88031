# gpuopt-env: target-gpu=h100
# DINO's shape: the torchvision branch is taken only when --arch names a
# torchvision model, and the default is a ViT (vit_small): MEM006 says
# nothing about a convolutional default that is not there.
import argparse

import torch
import torch.nn as nn
import torchvision.models as models

parser = argparse.ArgumentParser()
parser.add_argument("-a", "--arch", default="vit_small")
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
        model = models.__dict__[args.arch](pretrained=True)
    else:
        model = models.__dict__[args.arch]()
    model = nn.DataParallel(model).cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), 0.1)
    for epoch in range(90):
        train(loader, model, criterion, optimizer)

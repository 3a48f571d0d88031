# gpuopt-env: target-gpu=h100
# NVIDIA apex's mixed precision runs only with --fp16, a flag that is off
# by default: the default run trains in fp32, so the step is reported,
# without a fix (native autocast beside apex's amp is not both-and; blind
# samples S26A's TransFG and S26D's HR-VITON).
import argparse

import torch
import torch.nn as nn
from apex import amp


def train(args, loader):
    model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 200)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, fused=True)
    if args.fp16:
        model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        loss = nn.functional.cross_entropy(model(images), labels)  # want: AMP004
        optimizer.zero_grad()
        if args.fp16:
            with amp.scale_loss(loss, optimizer) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp16", action="store_true")
    train(parser.parse_args(), [])

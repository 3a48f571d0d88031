# gpuopt-env: target-gpu=h100
# The ImageNet-example layout: the model goes to one GPU when --gpu is
# given and is wrapped in nn.DataParallel otherwise (its features only
# for the VGG family). The training and evaluation passes are wrapped in
# bf16 autocast that is off where a module of the model is a DataParallel
# over several GPUs. The GAN below wraps a discriminator the step does
# not call through the generator's name: no guard can see it, no fix.
import argparse

import torch
import torch.nn as nn
import torchvision


def build(args):
    model = torchvision.models.__dict__[args.arch]()
    if args.gpu is not None:
        torch.cuda.set_device(args.gpu)
        model = model.cuda(args.gpu)
    elif args.arch.startswith("vgg"):
        model.features = torch.nn.DataParallel(model.features)
        model.cuda()
    else:
        model = torch.nn.DataParallel(model).cuda()
    return model


def train(loader, model, criterion, optimizer, args):
    model.train()
    for images, target in loader:
        images = images.cuda(args.gpu, non_blocking=True)
        target = target.cuda(args.gpu, non_blocking=True)
        output = model(images)  # want: AMP004
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model, criterion, args):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for images, target in loader:
            images = images.cuda(args.gpu, non_blocking=True)
            target = target.cuda(args.gpu, non_blocking=True)
            output = model(images)
            total += criterion(output, target)
    return total / len(loader)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet50")
    parser.add_argument("--gpu", type=int, default=None)
    args = parser.parse_args()
    model = build(args)
    criterion = nn.CrossEntropyLoss().cuda(args.gpu)
    optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, fused=True)
    dataset = torchvision.datasets.FakeData(50000, (3, 224, 224), 1000, torchvision.transforms.ToTensor())
    loader = torch.utils.data.DataLoader(dataset, batch_size=256, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    for epoch in range(90):
        train(loader, model, criterion, optimizer, args)
        validate(loader, model, criterion, args)


if __name__ == "__main__":
    main()

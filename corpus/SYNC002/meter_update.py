# Research-code training loops that feed AverageMeters with .item() on
# every step and print them every few steps: each .item() waits for the
# GPU. A hint without a fix: the meter must accept a device tensor.
import torch
import torch.nn as nn
import torchvision


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def accuracy(output, target):
    return (output.argmax(1) == target).float().mean() * 100


def train(model, loader, optimizer, criterion, epochs, print_freq=50):
    losses, top1 = AverageMeter(), AverageMeter()
    for epoch in range(epochs):
        for i, (images, target) in enumerate(loader):
            images, target = images.cuda(non_blocking=True), target.cuda(non_blocking=True)
            output = model(images)
            loss = criterion(output, target)
            losses.update(loss.item(), images.size(0))  # want: SYNC002
            top1.update(accuracy(output, target).item(), images.size(0))  # want: SYNC002
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % print_freq == 0:
                print(f"epoch {epoch} step {i} loss {losses.avg:.4f} acc {top1.avg:.2f}")


class Trainer:
    def __init__(self, model, loader):
        self.model = model.cuda()
        self.loader = loader
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.meters = {"loss": AverageMeter()}

    def epoch(self):
        for step, (x, y) in enumerate(self.loader):
            loss = nn.functional.cross_entropy(self.model(x.cuda()), y.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.meters["loss"].update(loss.item())  # want: SYNC002


def train_with_bar(model, loader, optimizer, criterion, pbar):
    # The bar shows the meter on every step: holding a device tensor, the
    # meter would make that read wait instead. Silent.
    losses = AverageMeter()
    for images, target in loader:
        loss = criterion(model(images.cuda()), target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), images.size(0))
        pbar.set_postfix(loss=losses.avg)


def train_logging_every_step(model, loader, optimizer, criterion):
    # The step syncs anyway: the loss is printed on every step. Silent.
    losses = AverageMeter()
    for images, target in loader:
        loss = criterion(model(images.cuda()), target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), images.size(0))
        print(loss.item())


def validate(model, loader, criterion):
    # No training step: an evaluation pass (SYNC001/MEM003 territory). Silent.
    losses = AverageMeter()
    with torch.no_grad():
        for images, target in loader:
            losses.update(criterion(model(images.cuda()), target.cuda()).item())
    return losses.avg


if __name__ == "__main__":
    net = torchvision.models.resnet50().cuda()
    train(net, [], torch.optim.SGD(net.parameters(), lr=0.1), nn.CrossEntropyLoss(), 90)

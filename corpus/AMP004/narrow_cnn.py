# gpuopt-env: target-gpu=h100
# An MNIST-sized CNN of the file's own: every layer's width is a literal or
# an argument of its calls, at most 128. Its step is launch-bound: autocast
# ran it 0.73x on an H100, so there is no finding.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))


class SmallNet(nn.Module):
    def __init__(self, width=64, classes=10):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, width // 2), conv_block(width // 2, width))
        self.head = nn.Linear(width * 7 * 7, classes)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


class WideNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv2d(3, width, 3)
        self.head = nn.Linear(width, 1000)

    def forward(self, x):
        return self.head(self.conv(x).mean((2, 3)))


def train(loader, epochs=1):
    model = SmallNet().cuda()
    opt = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def train_wide(loader, width):
    # The width comes from the caller: neither narrow nor shown to be large,
    # so the wrap is a hint that says to measure.
    model = WideNet(width).cuda()
    opt = torch.optim.Adam(model.parameters())
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(model(x), y)  # want: AMP004
        opt.zero_grad()
        loss.backward()
        opt.step()

# gpuopt-env: target-gpu=h100
# A convolutional class of this file (flattening with torch.flatten), on
# a device chosen at run time, evaluated under autocast in a method.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def conv3x3(cin, cout):
    return nn.Conv2d(cin, cout, kernel_size=3, padding=1, bias=False)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = conv3x3(c, c)
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 64, 3, padding=1)
        self.blocks = nn.Sequential(Block(64), Block(64))
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.head(torch.flatten(x, 1))


class Evaluator:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    @torch.no_grad()
    def run(self):
        self.model.eval()
        correct = 0
        for x, y in self.loader:
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                out = self.model(x.to(device))
            correct += (out.argmax(1) == y.to(device)).sum()
        return correct


def main(loader):
    net = Net().to(device)  # want: MEM006
    return Evaluator(net, loader).run()

import torch


class EEGNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(1, 256, kernel_size=(1, 51), padding=(0, 25), bias=False),
            torch.nn.BatchNorm2d(256),
            torch.nn.ELU(),
            torch.nn.Conv2d(256, 512, kernel_size=(2, 1), groups=256, bias=False),
            torch.nn.BatchNorm2d(512),
            torch.nn.ELU(),
            torch.nn.AdaptiveAvgPool2d(1),
        ).double()
        self.classify = torch.nn.Linear(512, 2).double()

    def forward(self, x):
        return self.classify(self.features(x).flatten(1))

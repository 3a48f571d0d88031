import torch.nn as nn


class Flatten(nn.Module):
    def forward(self, feat):
        return feat.view(feat.size(0), -1)


class Head(nn.Module):
    def __init__(self, n_label=1000):
        super().__init__()
        self.classifier = nn.Sequential()
        self.classifier.add_module('Pool', nn.AdaptiveAvgPool2d((1, 1)))
        self.classifier.add_module('Flatten', Flatten())
        self.classifier.add_module('Linear', nn.Linear(2048, n_label))

    def forward(self, x):
        return self.classifier(x)

import torch.nn as nn
from spikingjelly.activation_based import layer, neuron


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            layer.Conv2d(2, 128, 3, padding=1),
            layer.BatchNorm2d(128),
            neuron.LIFNode(),
            layer.AdaptiveAvgPool2d(1),
            layer.Flatten(),
            layer.Linear(128, 11),
        )

    def forward(self, x):
        return self.features(x)

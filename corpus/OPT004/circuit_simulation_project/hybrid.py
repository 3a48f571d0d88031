import torch.nn as nn
from qiskit_machine_learning.connectors import TorchConnector


class HybridNet(nn.Module):
    def __init__(self, qnn):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(256, 4)
        self.quantum = TorchConnector(qnn)

    def forward(self, x):
        x = self.conv(x).flatten(1)
        return self.quantum(self.fc(x))

import torch.nn as nn


class FaceDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 10, 3), nn.PReLU(10), nn.MaxPool2d(2), nn.Conv2d(10, 16, 3), nn.PReLU(16))
        self.box = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        return self.box(self.body(x))

import torch.nn as nn


class MotionEncoder(nn.Module):
    def __init__(self, pose_size=28, hidden=1024):
        super().__init__()
        self.rnn = nn.GRU(pose_size, hidden, num_layers=2, batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0]


class Decoder(nn.Module):
    def __init__(self, hidden=1024, pose_size=28):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(hidden, 2048), nn.ReLU(), nn.Linear(2048, pose_size))

    def forward(self, z):
        return self.body(z)


class Head(nn.Module):
    def __init__(self, hidden=1024, classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(hidden, 2048), nn.ReLU(), nn.Linear(2048, classes))

    def forward(self, z):
        return self.body(z[:, -1])


class ConvEncoder(nn.Module):
    def __init__(self, pose_size=28, hidden=1024):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(pose_size, 512, 5, padding=2), nn.ReLU(), nn.Conv1d(512, hidden, 5, padding=2))

    def forward(self, x):
        return self.body(x.transpose(1, 2)).transpose(1, 2)

# gpuopt-env: target-gpu=h100
# The entry point of the PyTorch 0.3 project of train.py: checked as 0.3
# too, no XFER001.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from train import train


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096)

    def forward(self, v, q):
        return self.fc(v) + q


model = nn.DataParallel(Net()).cuda()
bias = torch.zeros(4096).cuda()
loader = DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 2048)), batch_size=512, shuffle=True, num_workers=1)
optimizer = torch.optim.Adamax(model.parameters())
train(model, loader, optimizer, 30)

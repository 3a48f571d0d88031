import torch
from torch import nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten()).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def main():
    torch.use_deterministic_algorithms(True)
    for step in range(10):
        loss = model(torch.randn(2, 3, 8, 8, device="cuda")).sum()
        loss.backward()
        optimizer.step()

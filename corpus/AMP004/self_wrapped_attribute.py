# gpuopt-env: target-gpu=h100
# A module attribute wrapped in a module that takes it
# (`self.decoder = Wrap(self.decoder)`: blind sample S19H's mmt). The
# width gate's walk through the networks a class is handed went round that
# cycle until the stack overflowed, which no recover() catches: the whole
# run died. It now ends within the walk's budget.
import torch
from torch import nn


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 512)

    def forward(self, x):
        return self.fc(x)


class Wrap(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x).sum()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = Inner()
        self.decoder = Wrap(self.decoder)

    def forward(self, x):
        return self.decoder(x)


def main():
    device = torch.device("cuda")
    model = Model().to(device)
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for step in range(100):
        x = torch.randn(8, 512, device=device)
        loss = model(x)  # want: AMP004
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()

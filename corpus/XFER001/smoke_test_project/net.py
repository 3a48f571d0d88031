"""A model module with a smoke test under its __main__ guard: the large
input is built once, by hand, and never in training. Silent."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 64, 3)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    x = torch.rand(4, 3, 473, 473).cuda()
    print(Net().cuda()(x).shape)
    # A gradient check over a few random batches: a loop, still the
    # module's self-test, run once by hand (blind sample S14D's TSM).
    net = Net().cuda()
    for i in range(10):
        y = torch.rand(8, 3, 32, 32).cuda()
        net(y).sum().backward()

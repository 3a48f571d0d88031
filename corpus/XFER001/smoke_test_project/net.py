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

import numpy as np
import torch
from torch import nn


class NotAModule:
    def __init__(self):
        self.w = torch.tensor([1.0])


class BeforeInit(nn.Module):
    def __init__(self):
        self.w = torch.tensor([1.0])  # before super().__init__(): register_buffer would fail
        super().__init__()


class Reassigned(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = torch.tensor([1.0])
        self.cache = torch.zeros(2)

    def reset(self):
        self.v = 0  # not a tensor: a buffer would refuse it

    def forward(self, x):
        self.cache = x
        return x


class ClassAttr(nn.Module):
    table = None

    def __init__(self):
        super().__init__()
        self.table = torch.tensor([1.0])


class ToNumpy(nn.Module):
    def __init__(self):
        super().__init__()
        self.bins = torch.linspace(0, 1, 10)

    def forward(self, x):
        return np.digitize(x, self.bins.numpy())


class Dynamic(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = torch.ones(2)

    def forward(self, x):
        return x * getattr(self, "k")


class OnDevice(nn.Module):
    # Built on the model's device already: it is not left on the CPU.
    def __init__(self, device="cpu"):
        super().__init__()
        self.reg_loss = torch.zeros((1,), device=device)

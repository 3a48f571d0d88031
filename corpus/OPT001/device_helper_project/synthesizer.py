"""A synthesizer whose device comes from the helper of another module:
the GPU when there is one, so its Adam gets fused=True, saying what it
assumed."""
import torch
from torch import nn

from device_utils import set_device


class Synthesizer:
    def __init__(self, enable_gpu=True):
        self._device = set_device(enable_gpu)

    def fit(self, data, epochs):
        gen = nn.Sequential(nn.Linear(128, 1024), nn.ReLU(), nn.Linear(1024, 128)).to(self._device)
        opt = torch.optim.Adam(gen.parameters(), lr=2e-4)  # want: OPT001
        for epoch in range(epochs):
            for x in data:
                loss = gen(x.to(self._device)).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()

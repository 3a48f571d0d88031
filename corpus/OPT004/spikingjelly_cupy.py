# A spiking transformer whose neurons are built on spikingjelly's cupy
# backend: each is an autograd Function launching CuPy kernels, which
# torch.compile cannot trace (a graph break at every neuron layer), and
# reset_net changes their state every step. Silent (blind sample S22C).
import torch
import torch.nn as nn
from spikingjelly.clock_driven import functional
from spikingjelly.clock_driven.neuron import MultiStepLIFNode


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.lif = MultiStepLIFNode(tau=2.0, detach_reset=True, backend='cupy')

    def forward(self, x):
        return self.lif(self.fc(x))


model = nn.Sequential(*[Block(512) for _ in range(8)]).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
for step in range(1000):
    x = torch.rand(16, 64, 512, device="cuda")
    loss = model(x).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    functional.reset_net(model)

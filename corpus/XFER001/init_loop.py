# The network's initial weights are drawn on the host and moved, once,
# in a loop over its parameters in an initialisation function called
# before training: a set-up cost, not a step's. No XFER001 (blind sample
# S31D). The same draw in the training step, per step, is reported.
import torch
import torch.nn as nn


def init_model(mod, scale=0.01):
    for name, param in mod.named_parameters():
        if param.requires_grad:
            param.data = scale * torch.randn(param.data.shape).cuda()


model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)).cuda()
init_model(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(1000):
    x = torch.randn(64, 512, device="cuda")
    noise = torch.randn(64, 512).cuda()  # want: XFER001
    loss = model(x + noise).square().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# A lip-reading trainer whose loss object (blind sample S23G's LSR) is
# built each epoch: it has no parameter and nothing to compile, so OPT004
# reports the network only.
import torch
import torch.nn as nn

from lsr import LSR

model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 500)).cuda()  # want: OPT004
optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=3e-4, fused=True)

for epoch in range(30):
    lsr = LSR()
    for step in range(500):
        x = torch.randn(64, 512, device="cuda")
        y = torch.randint(0, 500, (64,), device="cuda")
        loss = lsr(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

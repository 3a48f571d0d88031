# A mixup step permutes the batch with an index vector built on the host
# and moved with non_blocking=True: a copy of a few hundred bytes the host
# only queues, waiting for nothing. Building it on the device would save
# microseconds and change randperm's random stream: no XFER001 (blind
# sample S31C). The same vector moved without non_blocking waits for the
# GPU at every step: reported.
import torch
import torch.nn as nn

model = nn.Linear(512, 10).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(1000):
    x = torch.randn(64, 512, device="cuda")
    y = torch.randint(0, 10, (64,), device="cuda")
    index = torch.randperm(x.size(0)).cuda(non_blocking=True)
    lam = 0.7
    mixed = lam * x + (1 - lam) * x[index]
    loss = lam * nn.functional.cross_entropy(model(mixed), y) + (1 - lam) * nn.functional.cross_entropy(model(mixed), y[index])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    blocking = torch.randperm(x.size(0)).cuda()  # want: XFER001
    x = x[blocking]

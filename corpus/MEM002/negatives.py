import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
loader = DataLoader(list(range(10)), batch_size=2)
loss_fn = nn.MSELoss()
k = 4

# Divided: correct accumulation.
for i, (x, y) in enumerate(loader):
    loss = loss_fn(model(x), y) / k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()

for i, (x, y) in enumerate(loader):
    loss = loss_fn(model(x), y)
    loss /= k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()

for i, (x, y) in enumerate(loader):
    loss = loss_fn(model(x), y)
    (loss / k).backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()

# zero_grad every step: nothing accumulates.
for i, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    if i % k == 0:
        optimizer.step()

# Only the scheduler steps periodically.
for i, (x, y) in enumerate(loader):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    if i % 100 == 0:
        scheduler.step()

# Gradients averaged by hand before the step.
for i, (x, y) in enumerate(loader):
    loss = loss_fn(model(x), y)
    loss.backward()
    if (i + 1) % k == 0:
        for p in model.parameters():
            p.grad /= k
        optimizer.step()
        optimizer.zero_grad()


def compute_loss(batch):
    x, y = batch
    return loss_fn(model(x), y) / k


for i, batch in enumerate(loader):
    loss = compute_loss(batch)
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()

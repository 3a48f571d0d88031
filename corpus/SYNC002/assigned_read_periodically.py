# `loss = loss.item()` after every optimizer step, read only when the
# script logs every display_interval steps (blind sample S27F's SimCSE):
# the step waits for a number it uses once in a hundred. A value the step
# reads every time (the early stop) keeps its sync and is not reported.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(768, 3072), nn.GELU(), nn.Linear(3072, 768)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5, fused=True)


def train(loader, display_interval=100):
    for batch_idx, x in enumerate(loader):
        x = x.cuda(non_blocking=True)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = loss.item()  # want: SYNC002
        if batch_idx % display_interval == 0:
            print(f"batch {batch_idx}: loss {loss:.6f}")


def train_until(loader, eps=1e-3):
    for batch_idx, x in enumerate(loader):
        x = x.cuda(non_blocking=True)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        value = loss.item()
        if value < eps:
            break
        if batch_idx % 100 == 0:
            print(value)

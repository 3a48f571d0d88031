import torch


def train_one_epoch(model, loader, optimizer, loss_fn):
    model.train()
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

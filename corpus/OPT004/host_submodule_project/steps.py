import torch.nn.functional as F


def train_epoch(model, loader, optimizer, device):
    model.train()
    for x, batch, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.to(device), batch.to(device)), y.to(device))
        loss.backward()
        optimizer.step()

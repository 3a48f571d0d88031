# The project's training function: it calls the model's children one by
# one.
import torch


def train(device, model, loader, criterion, optimizer):
    model.train()
    for anchor, positive, negative in loader:
        batch = torch.cat([anchor, positive, negative]).to(device, non_blocking=True)
        codes = model.pool(model.encoder(batch))
        loss = criterion(*codes.chunk(3))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

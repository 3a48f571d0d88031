# A loader whose pin_memory is set after it is built (blind sample
# S37Q's ML-GCN: `train_loader.pin_memory = True` under `if use_gpu:`):
# the DataLoader reads it when each pass starts, so its batches are
# pinned. Not reported. The loader left alone is.
import torch
from torch.utils.data import DataLoader


def train(model, train_set, val_set, optimizer, epochs, use_gpu=True):
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=8)
    val_loader = DataLoader(val_set, batch_size=64, num_workers=8)  # want: LOAD002
    if use_gpu:
        train_loader.pin_memory = True
        model = model.cuda()
    for epoch in range(epochs):
        for x, y in train_loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for x, y in val_loader:
            x, y = x.cuda(), y.cuda()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

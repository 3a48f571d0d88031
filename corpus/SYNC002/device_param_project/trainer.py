# The training loop of a contrastive HAR project (blind sample S32A's
# CL-HAR): this module never says "cuda"; main.py star-imports it and hands it DEVICE.
import torch


def train(loader, model, optimizer, criterion, DEVICE, n_epoch):
    for epoch in range(n_epoch):
        total_loss = 0.0
        for sample, target in loader:
            sample, target = sample.to(DEVICE), target.to(DEVICE)
            optimizer.zero_grad()
            loss = criterion(model(sample), target)
            total_loss += loss.item()  # want: SYNC002
            loss.backward()
            optimizer.step()
        print(epoch, total_loss)

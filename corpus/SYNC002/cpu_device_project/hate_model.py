# A module that builds its one device as the CPU (blind sample S33BG's
# hate-speech classifier: `device = torch.device("cpu")`), in a project
# whose other scripts name CUDA: its .item() waits for nothing. Silent.
import torch
import torch.nn as nn


def train(model, train_loader, epochs=200):
    device = torch.device("cpu")
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        total = 0.0
        for inputs, targets in train_loader:
            inputs, targets = inputs.to(device), targets.to(device)
            loss = nn.functional.binary_cross_entropy_with_logits(model(inputs).squeeze(1), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(epoch, total)

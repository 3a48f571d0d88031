# The training loop of the project, in its own module.
import torch


def run_training(model, optimizer, loader, epochs):
    device = torch.device("cuda")
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def summarize(model):
    # Reads the model, trains nothing.
    return sum(p.numel() for p in model.parameters())

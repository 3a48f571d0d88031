"""The forward runs in a helper the step calls; the step is the place to
put autocast around it."""
import torch
import torch.nn.functional as F


def batch_loss(inputs, targets, model, device):
    inputs, targets = inputs.to(device), targets.to(device)
    logits = model(inputs)
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def train(model, loader, optimizer, device, epochs):
    for _ in range(epochs):
        model.train()
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = batch_loss(inputs, targets, model, device)  # want: AMP004
            loss.backward()
            optimizer.step()


def main(loader):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Embedding(100, 100).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    train(model, loader, optimizer, device, epochs=2)

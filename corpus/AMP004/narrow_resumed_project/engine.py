# The training function moves the model it is given to the device
# (`model = model.to(device)`), and the script hands it either a new Net
# or a resumed one from torch.load: both are the 55-32-16-1 MLP, too
# narrow for autocast or torch.compile to pay. Silent.
import torch


def train(loader, model, optimizer, device):
    model = model.to(device=device)
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x).squeeze(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

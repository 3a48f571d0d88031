"""A module-level loader iterated inside train(), which the epoch loop
calls: its workers are restarted every epoch."""
import torch
from torch.utils.data import DataLoader, TensorDataset

device = "cuda"
model = torch.nn.Linear(8, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(64, 8), torch.randn(64, 2)), batch_size=8, num_workers=2)  # want: LOAD003


def train():
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


for epoch in range(10):
    train()

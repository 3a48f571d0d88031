# Seed 003, 梯度累积技巧: the snippet never moves the model or the batches.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

accumulation_steps = 4
model = nn.Sequential(nn.Linear(20, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(TensorDataset(torch.randn(64, 20), torch.randint(0, 2, (64,))), batch_size=8)

for i, (inputs, targets) in enumerate(loader):  # want: DEV001
    outputs = model(inputs)
    loss = criterion(outputs, targets) / accumulation_steps
    loss.backward()
    if (i+1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()

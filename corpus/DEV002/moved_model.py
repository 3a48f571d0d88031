import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
train_set = TensorDataset(torch.randn(64, 10), torch.randint(0, 2, (64,)))
loader = DataLoader(train_set, batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())

for epoch in range(2):
    for x, y in loader:  # want: DEV002
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()

# A dtype conversion does not move the batch.
for x, y in loader:  # want: DEV002
    loss = criterion(model(x.to(torch.float32)), y)
    loss.backward()

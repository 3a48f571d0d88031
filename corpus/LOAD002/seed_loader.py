import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BATCH_SIZE = 256
NUM_WORKERS = 4
model = nn.Linear(16, 1).cuda()
optimizer = torch.optim.AdamW(model.parameters())
dataset = TensorDataset(torch.randn(1024, 16), torch.randn(1024, 1))

# Seed 001, "DataLoader优化": workers without pinned memory and without
# persistent workers, iterated every epoch.
train_loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True, num_workers=NUM_WORKERS)  # want: LOAD002
for epoch in range(10):
    for x, y in train_loader:
        x, y = x.cuda(), y.cuda()
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

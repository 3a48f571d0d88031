import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_ds = TensorDataset(torch.randn(64, 8))
loader = DataLoader(train_ds, batch_size=8, num_workers=4, pin_memory=True)  # want: LOAD003
once = DataLoader(TensorDataset(torch.randn(64, 8)), batch_size=8, num_workers=4, pin_memory=True)

for epoch in range(10):
    for (x,) in loader:
        model(x.cuda()).sum().backward()
        optimizer.step()

# Iterated once: nothing to keep alive.
for (x,) in once:
    model(x.cuda()).sum().backward()
    optimizer.step()

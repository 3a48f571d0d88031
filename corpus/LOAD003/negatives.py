import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
ds = TensorDataset(torch.randn(64, 8))
loader = DataLoader(ds, batch_size=8, num_workers=4, pin_memory=True)

for epoch in range(10):
    # The dataset changes between epochs: persistent workers would not see it.
    ds.epoch = epoch
    for (x,) in loader:
        model(x.cuda()).sum().backward()
        optimizer.step()

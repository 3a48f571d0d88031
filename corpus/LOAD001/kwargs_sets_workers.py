"""Silent: the loader's settings arrive through **kwargs, and the dict
already sets num_workers (on the GPU path)."""
import torch
from torch.utils.data import DataLoader, TensorDataset

use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
model = torch.nn.Linear(8, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(256, 8), torch.randn(256, 2))

loader_kwargs = {"batch_size": 32, "shuffle": True}
if use_cuda:
    loader_kwargs.update({"num_workers": 4, "pin_memory": True, "persistent_workers": True})
loader = DataLoader(data, **loader_kwargs)

cfg = dict(batch_size=64)
cfg["num_workers"] = 2
other = DataLoader(data, **cfg)

for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for x, y in other:
        model(x.to(device))

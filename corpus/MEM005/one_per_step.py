# gpuopt-env: target-gpu=h100
# One graph per step (a GNN over whole graphs): a batch of one is chosen,
# not a default, and no larger batch fits variable-sized samples. The
# image loader's 32 is reported.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
model = nn.Linear(16, 2).to(device)
opt = torch.optim.Adam(model.parameters())
features = [torch.randn(n, 16) for n in (5, 9, 14)]
graph_loader = DataLoader(torch.arange(3), batch_size=1, shuffle=True)
image_loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=32)  # want: MEM005
for epoch in range(10):
    for batch in graph_loader:
        loss = model(features[batch[0]].to(device)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    for (x,) in image_loader:
        loss = model(x.to(device)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()

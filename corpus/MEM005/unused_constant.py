# gpuopt-env: target-gpu=h100
# A batch_size constant the script never reads (the DataLoader spells its own
# 128, reported there): the constant is not reported.
import torch
import torch.nn as nn

batch_size = 128
device = torch.device("cuda")
dataset = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
loader = torch.utils.data.DataLoader(dataset, batch_size=128, shuffle=True)  # want: MEM005
model = nn.Linear(8, 2).to(device)
optimizer = torch.optim.Adam(model.parameters())
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

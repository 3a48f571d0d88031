import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
criterion = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

loss_sum = 0.0
abs_sum = 0.0
for x, y in loader:
    out = model(x)
    loss = criterion(out, y)
    loss.backward()
    loss_sum += loss.item()  # want: SYNC002
    abs_sum += out.abs().mean().item()  # want: SYNC002
print(loss_sum, abs_sum)

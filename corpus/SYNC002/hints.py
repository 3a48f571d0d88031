import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4).cuda()
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

# Starts as an int: the sum may count integers, gpuopt does not guess.
correct = 0
with torch.no_grad():
    for x, y in loader:
        pred = model(x).argmax(dim=1)
        correct += (pred == y).sum().item()  # want: SYNC002
print(correct / 64)


# The value's type is unknown (a helper's result).
def helper(batch):
    return batch


acc = 0.0
for x, y in loader:
    model(x)
    acc += helper(x).item()  # want: SYNC002
print(acc)

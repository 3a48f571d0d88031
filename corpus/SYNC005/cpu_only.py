# A file that never mentions CUDA: tensors stay on the CPU and .item() is cheap.
import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(list(range(10)), batch_size=2)

for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    print(loss.item())

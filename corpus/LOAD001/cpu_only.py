import torch
from torch.utils.data import DataLoader

# The file never uses CUDA: not a GPU loop.
model = torch.nn.Linear(8, 2)
loader = DataLoader(list(range(8)), batch_size=2)
for batch in loader:
    out = model(batch)

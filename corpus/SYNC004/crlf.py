import torch
from torch.utils.data import DataLoader

loader = DataLoader([1])
for x in loader:
    print(x)
    torch.cuda.empty_cache()  # want: SYNC004
    print(x)

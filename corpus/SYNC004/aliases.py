import torch.cuda as tc
from torch.cuda import empty_cache
import torch
from torch.utils.data import DataLoader

loader = DataLoader([1, 2, 3])
for batch in loader:
	print(batch)
	tc.empty_cache()  # want: SYNC004
	empty_cache()  # want: SYNC004
	x = 1; empty_cache()  # want: SYNC004

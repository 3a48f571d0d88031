import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
model = torch.nn.Linear(8, 2).to(device)
pinned = DataLoader(list(range(10)), batch_size=2, pin_memory=True)
plain = DataLoader(list(range(10)), batch_size=2)

# Not pinned: a non-blocking copy from pageable memory gains nothing.
for x, y in plain:
    x = x.to(device)

for x, y in pinned:
    # Already non-blocking.
    x = x.to(device, non_blocking=True)
    # The CPU tensor is written after the copy: an async copy could race.
    y_gpu = y.to(device)
    y.zero_()
    # A dtype conversion, not a copy to the device.
    z = x.to(torch.float16)

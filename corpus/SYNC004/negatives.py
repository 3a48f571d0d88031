import torch
from torch.utils.data import DataLoader

loader = DataLoader([1, 2, 3])

# Not in a hot loop.
for i in range(10):
    torch.cuda.empty_cache()
torch.cuda.empty_cache()

for step, batch in enumerate(loader):
    # Periodic: deliberate.
    if step % 100 == 0:
        torch.cuda.empty_cache()
    try:
        print(batch)
    except RuntimeError:
        # Recovering from an out-of-memory error: deliberate.
        torch.cuda.empty_cache()


def empty_cache():
    pass


for batch in loader:
    empty_cache()  # a local function, not torch's


class torch_like:
    class cuda:
        @staticmethod
        def empty_cache():
            pass

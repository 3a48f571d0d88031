# An endless training loop that draws batches with next() and copies them
# in a list comprehension.
import torch
from torch.utils.data import DataLoader


class Loop:
    def __init__(self, model, dataset):
        self.model = model
        self.dataset = dataset
        self.device = "cuda" if torch.cuda.is_available() else "cpu"

    def run(self, steps):
        loader = DataLoader(self.dataset, batch_size=64, pin_memory=True, num_workers=4)
        data_iter = iter(loader)
        for _ in range(steps):
            try:
                batch = next(data_iter)
            except StopIteration:
                data_iter = iter(loader)
                batch = next(data_iter)
            batch = [t.to(self.device) for t in batch]  # want: XFER002
            x, y = batch
            self.model(x, y).backward()

    def run_unpinned(self, steps):
        loader = DataLoader(self.dataset, batch_size=64, num_workers=4)
        data_iter = iter(loader)
        for _ in range(steps):
            batch = [t.to(self.device) for t in next(data_iter)]
            self.model(*batch).backward()

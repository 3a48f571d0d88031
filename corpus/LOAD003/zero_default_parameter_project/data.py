# The loaders' worker count is a parameter whose default is 0, and the
# scripts pass a config's count: no worker starts unless a caller asks, so
# there are no workers to keep (persistent_workers=True with 0 workers
# raises ValueError). LOAD003 stays silent (blind sample S39AA).
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __init__(self, data, split):
        self.data = data[:800] if split == "train" else data[800:]

    def __len__(self):
        return len(self.data) - 60

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i:i + 30]), torch.from_numpy(self.data[i + 30:i + 60])


def get_dataloaders(path, batch_size=32, num_workers: int = 0):
    data = np.load(path)
    kw = dict(batch_size=batch_size, num_workers=num_workers)
    train_loader = DataLoader(Frames(data, "train"), shuffle=True, **kw)
    val_loader = DataLoader(Frames(data, "val"), shuffle=False, **kw)
    return train_loader, val_loader

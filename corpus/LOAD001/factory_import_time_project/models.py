# A loader factory (blind sample S32N's microlensing models.py) whose
# callers, train.py, run their loops at import: the fix starts the new
# workers with fork, since spawn and forkserver (Linux's default from
# Python 3.14) import train.py again in every worker, which would train
# there too.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class LightcurveDataset(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return torch.from_numpy(np.load(self.files[index])).float()


def get_dataloader(files, batch_size=16, shuffle=True):
    dataset = LightcurveDataset(files)
    return DataLoader(  # want: LOAD001
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
    )

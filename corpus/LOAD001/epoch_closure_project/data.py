# gpuopt-env: cpus=16
# The loader module of a trainer that hands the dataset an augmentor
# reading the epoch through a lambda (train.py; blind sample S35H's
# FastMRI entry). Forked workers see the epoch of the moment they start;
# persistent ones would keep epoch 0 for the whole run (augmentation off),
# and spawn or forkserver cannot pickle the lambda: no fix.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Slices(Dataset):
    def __init__(self, paths, augmentor=None):
        self.paths = paths
        self.augmentor = augmentor

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        x = torch.from_numpy(np.load(self.paths[i]).astype(np.float32))
        y = x.clone()
        if self.augmentor is not None:
            x = self.augmentor(x)
        return x, y


def create_loader(paths, augmentor=None, shuffle=False):
    dataset = Slices(paths, augmentor=augmentor)
    return DataLoader(dataset, batch_size=8, shuffle=shuffle)  # want: LOAD001

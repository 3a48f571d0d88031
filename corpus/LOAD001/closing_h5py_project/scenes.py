import h5py
import torch
from torch.utils.data import Dataset


class Scenes(Dataset):
    """Keeps one open HDF5 handle per scene: workers started by spawn or
    forkserver cannot pickle them, and forked ones would share them."""

    def __init__(self, paths):
        self.files = [h5py.File(p, mode="r") for p in paths]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        f = self.files[i]
        return torch.from_numpy(f["inputs"][()]), torch.from_numpy(f["label"][()])

    def close(self):
        for f in self.files:
            f.close()

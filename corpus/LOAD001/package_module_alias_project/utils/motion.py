import numpy as np
from torch.utils.data import Dataset


class Sequences(Dataset):
    """Windows of motion-capture sequences loaded once in __init__."""

    def __init__(self, path, window=35):
        self.poses = {k: v.astype(np.float32) for k, v in np.load(path).items()}
        self.index = [(k, s) for k, v in self.poses.items() for s in range(len(v) - window)]
        self.window = window

    def __len__(self):
        return len(self.index)

    def __getitem__(self, item):
        key, start = self.index[item]
        frames = np.arange(start, start + self.window)
        return self.poses[key][frames]

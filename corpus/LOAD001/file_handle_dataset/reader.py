# A dataset that streams a text corpus through one open file: each item
# is the next line of the handle it keeps.
import torch
from torch.utils.data import Dataset


class LineDataset(Dataset):
    def __init__(self, path, size):
        self.size = size
        self.input_file = open(path, encoding="utf8")

    def __len__(self):
        return self.size

    def __getitem__(self, idx):
        line = self.input_file.readline()
        if not line:
            self.input_file.seek(0, 0)
            line = self.input_file.readline()
        return torch.tensor([len(w) for w in line.split()[:8]] + [0] * (8 - len(line.split()[:8])))

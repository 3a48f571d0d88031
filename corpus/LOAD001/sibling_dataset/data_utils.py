import torch.utils.data as data
from PIL import Image


class PairData(data.Dataset):
    """(user, item, label) rows held in lists: indexing is all __getitem__ does."""

    def __init__(self, rows, labels):
        self.rows = rows
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.rows[idx][0], self.rows[idx][1], self.labels[idx]


class ImageData(data.Dataset):
    """Decodes an image file per item: worth workers."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        return Image.open(self.paths[idx]).convert("RGB")

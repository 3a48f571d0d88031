"""Datasets that read one image file per item, the way segmentation and
fine-grained classification projects write them: a base class decodes,
a subclass adds labels through super(), another reads through a loader
function it keeps on self."""
import numpy as np
import PIL.Image
import torch
from torch.utils.data import Dataset


def rgb_loader(path):
    with open(path, "rb") as f:
        return PIL.Image.open(f).convert("RGB")


class FolderImages(Dataset):
    def __init__(self, names, root):
        self.names, self.root = names, root

    def __len__(self):
        return len(self.names)

    def __getitem__(self, idx):
        img = np.asarray(PIL.Image.open(f"{self.root}/{self.names[idx]}.jpg"), dtype=np.float32)
        return torch.from_numpy(img).permute(2, 0, 1)


class LabelledImages(FolderImages):
    def __init__(self, names, root, labels):
        super().__init__(names, root)
        self.labels = labels

    def __getitem__(self, idx):
        return super().__getitem__(idx), self.labels[idx]


class Birds(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels
        self.loader = rgb_loader

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        img = np.asarray(self.loader(self.paths[idx]), dtype=np.float32)
        return torch.from_numpy(img).permute(2, 0, 1), self.labels[idx]

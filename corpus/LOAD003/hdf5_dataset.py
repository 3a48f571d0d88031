# A dataset whose images live in an HDF5 file opened in __init__ and read
# item by item in __getitem__ (the image-captioning tutorial's
# CaptionDataset over COCO): every item is a read from disk, an epoch runs
# for minutes, and a restart of the workers is well under 1% of it. A
# dataset whose arrays are loaded into memory keeps the finding.
import h5py
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class CaptionDataset(Dataset):
    def __init__(self, path):
        self.h = h5py.File(path, "r")
        self.imgs = self.h["images"]
        self.captions = np.load(path + ".captions.npy")

    def __getitem__(self, i):
        return torch.FloatTensor(self.imgs[i // 5] / 255.0), torch.LongTensor(self.captions[i])

    def __len__(self):
        return len(self.captions)


class InMemoryDataset(Dataset):
    def __init__(self, path):
        self.imgs = np.load(path)

    def __getitem__(self, i):
        return torch.from_numpy(self.imgs[i])

    def __len__(self):
        return len(self.imgs)


def train(model, optimizer, path, epochs):
    captions = DataLoader(CaptionDataset(path), batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
    arrays = DataLoader(InMemoryDataset(path), batch_size=32, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
    for epoch in range(epochs):
        for imgs, caps in captions:
            imgs, caps = imgs.cuda(non_blocking=True), caps.cuda(non_blocking=True)
            loss = model(imgs, caps)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for imgs in arrays:
            loss = model(imgs.cuda(non_blocking=True), None)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

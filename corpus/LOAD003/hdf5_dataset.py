# A dataset whose images live in an HDF5 file opened in __init__ and read
# item by item in __getitem__ (the image-captioning tutorial's
# CaptionDataset over COCO), or an LMDB environment read in a transaction
# (vq-vae-2's code dataset): every item is a read from disk, an epoch runs
# for minutes, and a restart of the workers is well under 1% of it. A
# dataset whose arrays are loaded into memory keeps the finding.
import pickle

import h5py
import lmdb
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


class CodeDataset(Dataset):
    def __init__(self, path):
        self.env = lmdb.open(path, readonly=True, lock=False)

    def __getitem__(self, index):
        with self.env.begin(write=False) as txn:
            row = pickle.loads(txn.get(str(index).encode("utf-8")))
        return torch.from_numpy(row.top), torch.from_numpy(row.bottom)

    def __len__(self):
        return 1000


class InMemoryDataset(Dataset):
    def __init__(self, path):
        self.imgs = np.load(path)

    def __getitem__(self, i):
        return torch.from_numpy(self.imgs[i])

    def __len__(self):
        return len(self.imgs)


def train(model, optimizer, path, epochs):
    captions = DataLoader(CaptionDataset(path), batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
    codes = DataLoader(CodeDataset(path), batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
    arrays = DataLoader(InMemoryDataset(path), batch_size=32, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
    for epoch in range(epochs):
        for imgs, caps in captions:
            imgs, caps = imgs.cuda(non_blocking=True), caps.cuda(non_blocking=True)
            loss = model(imgs, caps)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for top, bottom in codes:
            loss = model(top.cuda(non_blocking=True), bottom.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for imgs in arrays:
            loss = model(imgs.cuda(non_blocking=True), None)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

# A dataset whose __getitem__ is memoized with lru_cache (blind sample
# S38AE's parking-space classifier): from the second epoch every item
# comes from the main process's memory, and workers would each fill a
# cache of their own. The loader over an uncached dataset is reported.
from functools import lru_cache

import torch
from PIL import Image
from torch.utils.data import DataLoader


class Spaces:
    def __init__(self, paths, labels, transform):
        self.paths, self.labels, self.transform = paths, labels, transform

    @lru_cache(maxsize=None)
    def __getitem__(self, idx):
        return self.transform(Image.open(self.paths[idx])), self.labels[idx]

    def __len__(self):
        return len(self.paths)


class Bounded:
    # 16 items kept: a shuffled epoch mostly misses them (not in memory).
    def __init__(self, paths, labels, transform):
        self.paths, self.labels, self.transform = paths, labels, transform

    def __len__(self):
        return len(self.paths)

    @lru_cache(maxsize=16)
    def __getitem__(self, idx):
        return self.transform(Image.open(self.paths[idx])), self.labels[idx]


class Frames:
    def __init__(self, paths, labels, transform):
        self.paths, self.labels, self.transform = paths, labels, transform

    def __getitem__(self, idx):
        return self.transform(Image.open(self.paths[idx])), self.labels[idx]

    def __len__(self):
        return len(self.paths)


model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 224 * 224, 2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def fit(loader, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train(paths, labels, transform, epochs):
    cached = DataLoader(Spaces(paths, labels, transform), batch_size=64, shuffle=True)
    fit(cached, epochs)


def train_bounded(paths, labels, transform, epochs):
    bounded = DataLoader(Bounded(paths, labels, transform), batch_size=64, shuffle=True)  # want: LOAD001
    fit(bounded, epochs)


def train_frames(paths, labels, transform, epochs):
    uncached = DataLoader(Frames(paths, labels, transform), batch_size=64, shuffle=True)  # want: LOAD001
    fit(uncached, epochs)

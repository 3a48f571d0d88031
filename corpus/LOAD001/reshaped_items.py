# A dataset that holds its series in one NumPy array and hands out a row,
# reshaped to (length, 1): its items are in memory, so workers would only
# add start-up and pickling. The image dataset beside it reads files and
# is reported.
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class Series(Dataset):
    def __init__(self, path):
        self.X = np.load(path).astype(np.float32)

    def __getitem__(self, index):
        return torch.from_numpy(self.X[index]).reshape(-1, 1)

    def __len__(self):
        return self.X.shape[0]


class Frames(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __getitem__(self, index):
        return torch.from_numpy(np.asarray(Image.open(self.paths[index]), dtype=np.float32)).permute(2, 0, 1)

    def __len__(self):
        return len(self.paths)


def train(model, optimizer, paths, epochs=100):
    series = DataLoader(Series("ecg.npy"), batch_size=512, shuffle=True)
    frames = DataLoader(Frames(paths), batch_size=64, shuffle=True)  # want: LOAD001
    for epoch in range(epochs):
        for x, img in zip(series, frames):
            x, img = x.cuda(), img.cuda()
            loss = model(x, img).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

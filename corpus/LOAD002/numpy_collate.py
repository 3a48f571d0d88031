# A collate_fn that stacks its batch with NumPy returns arrays, which the
# DataLoader does not pin (it pins tensors only): pin_memory=True would pin
# nothing, so the loader is left alone. A collate that returns tensors is
# reported.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Voxels(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        data = np.load(self.paths[i])
        return data["features"], data["coords"], data["targets"]


def numpy_collate(batch):
    feats, coords, targets = [], [], []
    for i, (f, c, t) in enumerate(batch):
        feats.append(f)
        coords.append(np.pad(c, ((0, 0), (1, 0)), constant_values=i))
        targets.append(t)
    return np.concatenate(feats), np.concatenate(coords), \
        np.array(targets)


def tensor_collate(batch):
    feats, targets = zip(*[(f, t) for f, _, t in batch])
    return torch.from_numpy(np.concatenate(feats)), torch.from_numpy(np.array(targets))


def train(paths, epochs=10):
    model = nn.Sequential(nn.Linear(7, 1024), nn.ReLU(), nn.Linear(1024, 1)).cuda()
    opt = torch.optim.Adam(model.parameters())
    by_numpy = DataLoader(Voxels(paths), batch_size=8, shuffle=True, num_workers=8, collate_fn=numpy_collate)
    by_tensor = DataLoader(Voxels(paths), batch_size=8, shuffle=True, num_workers=8, collate_fn=tensor_collate)  # want: LOAD002
    for epoch in range(epochs):
        for feats, coords, targets in by_numpy:
            x = torch.from_numpy(feats).cuda()
            loss = (model(x).squeeze(-1) - torch.from_numpy(targets).cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        for x, y in by_tensor:
            loss = (model(x.cuda()).squeeze(-1) - y.cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    train([])

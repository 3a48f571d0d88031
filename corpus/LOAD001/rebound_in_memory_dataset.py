# A name rebound from an array to an in-memory Dataset just before the
# loader that reads it (blind sample S33Z's SSFTT: `X = X.transpose(...)`
# then `X = TestDS(X, y_all)` and `DataLoader(dataset=X)`): the loader
# serves TestDS, whose items are slices of tensors already in memory, so
# workers would only add start-up and pickling. Silent. A loader over a
# dataset that reads files keeps the finding.
import numpy as np
import torch


class TestDS(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x_data = torch.FloatTensor(x)
        self.y_data = torch.LongTensor(y)

    def __len__(self):
        return len(self.y_data)

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]


class Patches(torch.utils.data.Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return torch.from_numpy(np.load(self.paths[index]))


def loaders(y_all, paths):
    X = np.load("pines.npy")
    X = X.reshape(-1, 15, 15, 30, 1)
    X = X.transpose(0, 4, 3, 1, 2)
    X = TestDS(X, y_all)
    all_loader = torch.utils.data.DataLoader(dataset=X, batch_size=64, shuffle=False, num_workers=0)
    files = torch.utils.data.DataLoader(Patches(paths), batch_size=64, num_workers=0)  # want: LOAD001
    return all_loader, files


model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(16)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(y_all, paths):
    all_loader, files = loaders(y_all, paths)
    for epoch in range(10):
        for x in files:
            loss = model(x.cuda()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            for x, y in all_loader:
                model(x.cuda())

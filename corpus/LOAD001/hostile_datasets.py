# gpuopt-env: cpus=16
# Datasets that worker processes cannot serve: silent.
import h5py
import torch
from torch.utils.data import DataLoader, Dataset

device = "cuda" if torch.cuda.is_available() else "cpu"


class OnDevice(Dataset):
    """Moves every sample to the GPU in __getitem__: a worker cannot."""

    def __init__(self, n, device):
        self.n, self.device = n, device

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = torch.randn(16)
        return x.to(self.device), i % 2


class Captions(Dataset):
    """Holds one open HDF5 file: forked workers would share the handle."""

    def __init__(self, path):
        self.h = h5py.File(path, "r")
        self.images = self.h["images"]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return torch.as_tensor(self.images[i]), 0


def main():
    net = torch.nn.Linear(16, 2).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in DataLoader(OnDevice(1024, device), batch_size=32):
        torch.nn.functional.cross_entropy(net(x), y.to(device)).backward()
        opt.step()
    images = DataLoader(Captions("data.h5"), batch_size=1, num_workers=1)
    for x, y in images:
        net(x.flatten(1)[:, :16].to(device)).sum().backward()
        opt.step()


if __name__ == "__main__":
    main()

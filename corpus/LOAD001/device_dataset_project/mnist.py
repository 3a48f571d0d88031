import torch
from torch.utils.data import Dataset
from torchvision.datasets import MNIST

from model import train


class CachedMNIST(Dataset):
    def __init__(self, train, cuda):
        self.ds = MNIST("./data", download=True, train=train)
        self.cuda = cuda
        self._cache = dict()

    def __getitem__(self, index):
        if index not in self._cache:
            self._cache[index] = list(self.ds[index])
            if self.cuda:
                self._cache[index][0] = self._cache[index][0].cuda(non_blocking=True)
        return self._cache[index]

    def __len__(self):
        return len(self.ds)


autoencoder = torch.nn.Sequential(torch.nn.Linear(784, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 784)).cuda()
train(CachedMNIST(True, cuda=True), autoencoder, 10, 256, torch.optim.Adam(autoencoder.parameters(), fused=True))

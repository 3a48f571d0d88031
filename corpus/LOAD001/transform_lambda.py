# Workers started by spawn or forkserver (macOS, Windows, Linux from
# Python 3.14) receive the dataset pickled. A transforms.Lambda closure in
# its transform, or a lambda its __init__ keeps on self, cannot be: the
# finding says so and comes without a fix.
import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class Faces(Dataset):
    """Decodes an image per sample: real work for workers."""

    def __init__(self, paths, labels, transform=None):
        self.paths = paths
        self.labels = labels
        self.transform = transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.transform(Image.open(self.paths[i])), self.labels[i]


class Scaled(Dataset):
    def __init__(self, paths, labels):
        self.paths = paths
        self.labels = labels
        self.transform = transforms.Compose([transforms.ToTensor(), lambda t: t * 2 - 1])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.transform(Image.open(self.paths[i])), self.labels[i]


def loaders(paths, labels):
    crops = transforms.Compose([
        transforms.TenCrop(40),
        transforms.Lambda(lambda cs: torch.stack([transforms.ToTensor()(c) for c in cs])),
    ])
    train = Faces(paths, labels, crops)
    first = DataLoader(train, batch_size=64, shuffle=True)  # want: LOAD001
    second = DataLoader(Scaled(paths, labels), batch_size=64)  # want: LOAD001
    return first, second


def main(paths, labels):
    model = nn.Linear(40, 7).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    first, second = loaders(paths, labels)
    for epoch in range(10):
        for x, y in first:
            step(model, opt, x.cuda(), y.cuda())
        for x, y in second:
            step(model, opt, x.cuda(), y.cuda())


def step(model, opt, x, y):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()


if __name__ == "__main__":
    main([], [])

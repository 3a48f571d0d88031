# gpuopt-env: torch=2.4
# A dataset class named for ImageNet (a memcached reader of its 1.28M
# images) or COCO has epochs of minutes: a worker restart is under 1% of
# one. Silent. A miniImageNet episode set has epochs of a few hundred small
# batches: reported.
import torch
from torch.utils.data import DataLoader, Dataset


class Imagenet(Dataset):
    def __init__(self, mode="train"):
        self.keys = open(f"/mnt/memcached/{mode}.txt").read().split()

    def __len__(self):
        return len(self.keys)

    def __getitem__(self, i):
        return torch.load(self.keys[i])


class COCODetection(Dataset):
    def __init__(self, root):
        self.ids = sorted(open(root + "/ids.txt").read().split())

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return torch.load(self.ids[i])


class MiniImageNet(Dataset):
    def __init__(self, split):
        self.data = torch.load(f"mini_{split}.pt")

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


model = torch.nn.Linear(2048, 1000).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
imagenet = DataLoader(Imagenet(), batch_size=256, num_workers=16, pin_memory=True)
coco = DataLoader(COCODetection("coco/train2017"), batch_size=32, num_workers=8, pin_memory=True)
episodes = DataLoader(MiniImageNet("train"), batch_size=64, num_workers=4, pin_memory=True)  # want: LOAD003

def train_on(loader):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


for epoch in range(100):
    train_on(imagenet)
    train_on(coco)
    train_on(episodes)

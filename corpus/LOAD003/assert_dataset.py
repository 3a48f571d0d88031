import argparse

import torch
import torchvision.datasets as dset
import torchvision.transforms as transforms

parser = argparse.ArgumentParser()
parser.add_argument("--dataset", default="fake")
parser.add_argument("--workers", type=int, default=2)
opt = parser.parse_args()

if opt.dataset == "fake":
    dataset = dset.FakeData(size=1000, image_size=(3, 64, 64), transform=transforms.ToTensor())
elif opt.dataset == "cifar10":
    dataset = dset.CIFAR10(root="data", download=True, transform=transforms.ToTensor())
# Only checked, never changed: the workers may outlive the epoch.
assert dataset
loader = torch.utils.data.DataLoader(dataset, batch_size=128, shuffle=True, num_workers=int(opt.workers), pin_memory=True)  # want: LOAD003

net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 64 * 64, 10)).cuda()
optimizer = torch.optim.Adam(net.parameters())
for epoch in range(25):
    for images, labels in loader:
        loss = torch.nn.functional.cross_entropy(net(images.cuda()), labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

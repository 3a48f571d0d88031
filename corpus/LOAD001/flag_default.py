# pytorch/examples' DCGAN: the worker count is a flag whose default is 2.
# The default is raised; a count given on the command line still wins.
# (--lr's default and the --batch flag are not worker counts.)
import argparse

import torch
import torchvision.datasets as dset
import torchvision.transforms as transforms

parser = argparse.ArgumentParser()
parser.add_argument('--workers', type=int, help='number of data loading workers', default=2)  # want: LOAD001
parser.add_argument('--batchSize', type=int, default=64, help='input batch size')
parser.add_argument('--lr', type=float, default=0.0002)
opt = parser.parse_args()

device = torch.device("cuda")
dataset = dset.FakeData(image_size=(3, 64, 64), transform=transforms.ToTensor())
dataloader = torch.utils.data.DataLoader(dataset, batch_size=opt.batchSize,
                                         shuffle=True, num_workers=int(opt.workers))
net = torch.nn.Conv2d(3, 8, 3).to(device)
optimizer = torch.optim.Adam(net.parameters(), lr=opt.lr)
for epoch in range(3):
    for i, data in enumerate(dataloader, 0):
        out = net(data[0].to(device))
        out.mean().backward()
        optimizer.step()

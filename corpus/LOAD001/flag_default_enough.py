# pytorch/examples' ImageNet: `-j/--workers` defaults to 4: left alone.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument('-j', '--workers', default=4, type=int, metavar='N')
args = parser.parse_args()
dataset = torch.utils.data.TensorDataset(torch.randn(64, 8))
loader = torch.utils.data.DataLoader(dataset, batch_size=8, num_workers=args.workers, pin_memory=True)
model = torch.nn.Linear(8, 2).cuda()
for (x,) in loader:
    model(x.cuda()).sum().backward()

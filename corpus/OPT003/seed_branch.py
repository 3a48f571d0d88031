import argparse

import torch
import torch.backends.cudnn as cudnn
from torchvision import models

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet18")
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()

if args.seed is not None:
    # Reproducible runs only when a seed is given.
    torch.manual_seed(args.seed)
    cudnn.deterministic = True
    cudnn.benchmark = False

# A torchvision architecture picked by name: most are convolutional.
model = models.__dict__[args.arch]().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 3, 224, 224), torch.randint(0, 1000, (8,)))]

for x, y in loader:  # want: OPT003
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()

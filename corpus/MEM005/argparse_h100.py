# gpuopt-env: target-gpu=h100
# The MNIST example's flags on an H100: the training batch default is
# reported with the seeds' suggestion and the learning-rate scaling; the
# test batch size is not.
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument('--batch-size', type=int, default=64, metavar='N')  # want: MEM005
parser.add_argument('--test-batch-size', type=int, default=1000, metavar='N')
parser.add_argument('--lr', type=float, default=1.0)
args = parser.parse_args()

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
loader = DataLoader(TensorDataset(torch.randn(64, 8), torch.randn(64, 2)), batch_size=args.batch_size)
for x, y in loader:
    loss = F.mse_loss(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()

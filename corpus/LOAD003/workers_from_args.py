import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=4)
args = parser.parse_args()

model = torch.nn.Linear(8, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(256, 8), torch.randn(256, 2))
# The worker count comes from the command line: persistent only when it is
# above 0 (persistent_workers=True with no workers raises ValueError).
loader = DataLoader(data, batch_size=32, num_workers=args.workers, pin_memory=True)  # want: LOAD003

for epoch in range(3):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

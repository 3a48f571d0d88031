# The worker count comes from a command-line flag whose default is 0
# (blind samples S38G's MobileCount and S38I's demucs-clone): by default
# every batch is loaded in the training process, as with a literal 0.
# The finding sits on the default, which the fix raises; a count given
# on the command line still wins. A flag read by a loader over tensors in
# memory is left alone.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=0)  # want: LOAD001
parser.add_argument("--memory-workers", type=int, default=0)
args = parser.parse_args()

model = torch.nn.Linear(1024, 10).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(dataset, epochs):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=args.workers)
    cached = DataLoader(TensorDataset(torch.randn(512, 1024), torch.randint(0, 10, (512,))), batch_size=64, num_workers=args.memory_workers)
    for epoch in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for x, y in cached:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

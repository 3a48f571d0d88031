# gpuopt-env: target-gpu=h100
# The script makes CUDA the default tensor type before it builds its
# loaders (blind sample S17C's nsf): collate may then build batches on the
# GPU, which a forked worker cannot touch and pin_memory refuses, so no
# worker, pinning or persistence advice applies.
import argparse

import torch
from torch.utils import data

import datasets

parser = argparse.ArgumentParser()
parser.add_argument("--dataset", default="power")
parser.add_argument("--batch-size", type=int, default=512)
args = parser.parse_args()

device = torch.device("cuda")
torch.set_default_tensor_type("torch.cuda.FloatTensor")

train_dataset = datasets.load_dataset(args.dataset, split="train")
train_loader = data.DataLoader(train_dataset, batch_size=args.batch_size, shuffle=True, drop_last=True)

flow = torch.nn.Sequential(torch.nn.Linear(8, 256), torch.nn.ReLU(), torch.nn.Linear(256, 8)).to(device)
optimizer = torch.optim.Adam(flow.parameters(), lr=5e-4, fused=True)
for epoch in range(100):
    for batch in train_loader:
        loss = flow(batch.to(device)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

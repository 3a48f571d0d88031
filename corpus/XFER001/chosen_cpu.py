# The script asks whether CUDA is there, then trains on the CPU on
# purpose (its CUDA line commented out: blind sample S17J's CGAN). No
# rule for the GPU applies: `.to(device)` copies nothing to a GPU.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
args = parser.parse_args()

is_cuda = torch.cuda.is_available()
# device = torch.device('cuda:{}'.format(args.gpu) if is_cuda else 'cpu')
device = torch.device("cpu")
print(device)

generator = nn.Sequential(nn.Linear(110, 4096), nn.ReLU(), nn.Linear(4096, 1024)).to(device)
optimizer = torch.optim.Adam(generator.parameters(), lr=2e-4)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(6400, 1024)), batch_size=64, shuffle=True)
for epoch in range(10):
    for (real,) in loader:
        target = torch.full((real.size(0), 1024), 1.0).float().to(device)
        noise = torch.randn(real.size(0), 110).to(device)
        loss = (generator(noise) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(loss.item())

# gpuopt-env: target-gpu=h100
# torch, the device and the data arrive through two star imports (train.py
# -> data.py -> conf.py, which names the CUDA device): a GPU training script.
from torch import nn
from torch.optim import Adam

from data import *

model = nn.Sequential(nn.Linear(512, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).to(device)
optimizer = Adam(params=model.parameters(), lr=1e-4, fused=True)

for step in range(epoch):  # want: AMP005
    for src, trg in train_iter:
        loss = nn.functional.cross_entropy(model(src.to(device)), trg.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

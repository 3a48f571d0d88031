# gpuopt-env: target-gpu=h100
# Two GPUs: the comprehension over a two-element list is two devices, and
# DataParallel replicates the model on both every step.
import torch
import torch.nn as nn

gpus = [0, 1]
model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
model = nn.DataParallel(model, device_ids=[i for i in range(len(gpus))])  # want: OPT005
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

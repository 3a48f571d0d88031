# gpuopt-env: target-gpu=h100
# --batch-size is the global batch of a distributed run, divided among the
# processes: a published protocol's setting, not a per-GPU default. Silent.
import argparse

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=256)
args = parser.parse_args()
args.world_size = dist.get_world_size() if dist.is_initialized() else 1

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(2048, 1000).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
per_device = args.batch_size // args.world_size
loader = DataLoader(TensorDataset(torch.randn(4096, 2048), torch.randint(0, 1000, (4096,))), batch_size=per_device)
for epoch in range(100):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()

import torch
from torch import nn

model = nn.Linear(16, 4)

# Seed 001 "使用多GPU" and seed 003 "多GPU训练常见陷阱": both the seeds' "wrong"
# and "optimised" forms are DataParallel; gpuopt hints DistributedDataParallel.
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)  # want: OPT005
other = nn.DataParallel(nn.Linear(16, 4), device_ids=[0, 1], output_device=0)  # want: OPT005

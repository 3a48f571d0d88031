import torch
from torch import nn

model = nn.Linear(64, 8).cuda()

# Seed 000, "Fused Optimizer": the seed probes for fused= at run time; on
# torch >= 2.0 with CUDA parameters it is always there.
optimizer = torch.optim.AdamW(  # want: OPT001
    model.parameters(),
    lr=1e-3,
)

import torch
from torch.cuda.amp import autocast  # want: AMP001

model = torch.nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")
use_amp = True

with autocast(enabled=use_amp):
    y = model(x)

with autocast():
    y = model(x)

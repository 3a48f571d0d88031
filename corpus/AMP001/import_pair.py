import torch
from torch.cuda.amp import autocast, GradScaler  # want: AMP001

model = torch.nn.Linear(8, 8).cuda()
scaler = GradScaler()
with autocast(dtype=torch.float16):
    y = model(torch.randn(2, 8, device="cuda"))

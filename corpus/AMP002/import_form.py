import torch
from torch.cuda.amp import GradScaler  # want: AMP002

scaler = GradScaler(init_scale=1024)

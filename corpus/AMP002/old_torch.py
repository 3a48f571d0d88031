# gpuopt-env: torch=2.2
import torch

# torch.amp.GradScaler arrived in 2.3.
scaler = torch.cuda.amp.GradScaler()

# gpuopt-env: torch=1.9
import torch

# torch.autocast does not exist before 1.10.
with torch.cuda.amp.autocast():
    pass

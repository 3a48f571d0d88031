# The old autocast kept on purpose for PyTorch releases before torch.autocast.
import torch

if is_torch_version("<", "1.10"):
    amp_context = torch.cuda.amp.autocast
else:
    amp_context = torch.autocast

try:
    with torch.autocast("cuda"):
        pass
except AttributeError:
    with torch.cuda.amp.autocast():
        pass

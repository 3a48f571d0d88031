import torch
from torch.cuda.amp import GradScaler  # want: AMP002

scaler = GradScaler()
# isinstance keeps the deprecated class: no fix offered for the import.
assert isinstance(scaler, GradScaler)

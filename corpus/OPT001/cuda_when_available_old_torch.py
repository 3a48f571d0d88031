# gpuopt-env: torch=2.3
import torch
from torch import nn

# Before 2.4 a fused optimizer rejects CPU parameters: on a machine without
# a GPU this line would fail, so the fix is only offered as a hint.
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 2).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)  # want: OPT001

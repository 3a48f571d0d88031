# Module.to(tensor) casts floating-point buffers to that tensor's dtype: a
# plain attribute stays float32, a buffer would become float16.
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.tensor([0.485, 0.456, 0.406])

    def forward(self, x):
        return x * self.w.to(x.device)


ref = torch.empty(1, dtype=torch.float16)
model = Scale().to(ref)

import torch
import torch.nn as nn

vocab_size = 1000


# Seed 000, "Registered Buffers": a lookup tensor kept as a plain attribute
# stays on the CPU when the model moves; a buffer moves with .to(device).
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        # Build lookup tensors once
        self._type_ids = torch.zeros(vocab_size, dtype=torch.long)  # want: CACHE002

    def forward(self, input_ids):
        return self._type_ids[input_ids]  # Vectorized lookup

import torch
from torch import nn

model = nn.Linear(16, 4)
batch = torch.randn(8, 16)
samples = [torch.randn(16), torch.randn(16)]


def helper(x):
    return x * 2


# Not a model: a plain function.
doubled = [helper(x.unsqueeze(0)) for x in batch]

# A Python list of samples: model(samples) would fail.
per_item = [model(x.unsqueeze(0)) for x in samples]
joined = torch.cat(per_item)

# The sample is used twice (a residual): not a plain per-sample call.
mixed = [model(x.unsqueeze(0)) + x for x in batch]

# Filtered samples.
kept = [model(x.unsqueeze(0)) for x in batch if x.sum() > 0]

# Extra arguments.
with_mask = [model(x.unsqueeze(0), None) for x in batch]

# Concatenated along another dimension: a hint without a fix.
side = [model(x.unsqueeze(0)) for x in batch]  # want: VEC002
wide = torch.cat(side, dim=1)

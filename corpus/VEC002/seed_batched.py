import torch
from torch import nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
batch = torch.randn(8, 16)

with torch.no_grad():
    # Slow: Per-sample processing
    outputs = [model(x.unsqueeze(0)) for x in batch]  # want: VEC002
    logits = torch.cat(outputs)
print(logits.shape)

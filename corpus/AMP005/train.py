# gpuopt-env: target-gpu=h100
import torch
from torch import nn

model = nn.TransformerEncoderLayer(d_model=1024, nhead=16, batch_first=True).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):  # want: AMP005
    loss = model(torch.randn(16, 512, 1024, device="cuda")).sum()
    loss.backward()
    optimizer.step()

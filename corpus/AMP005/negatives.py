# gpuopt-env: target-gpu=h100
import torch
from torch import nn

# The script chose a precision itself.
torch.backends.cuda.matmul.allow_tf32 = False
model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()

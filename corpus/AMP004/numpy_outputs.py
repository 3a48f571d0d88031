# gpuopt-env: target-gpu=h100
# Outputs go to NumPy in the loop: bf16 has no NumPy dtype, so no fix (the
# message says to add .float() first).
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
history = []
for step in range(10):
    out = model(torch.randn(4, 4096, device="cuda"))  # want: AMP004
    loss = out.pow(2).mean()
    history.append(out.detach().cpu().numpy())
    loss.backward()
    optimizer.step()

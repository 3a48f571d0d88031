# No GPU known: the bf16 wrap is only a hint (on a GPU older than sm_80 bf16
# runs emulated and slower).
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 4096, device="cuda")).sum()  # want: AMP004
    loss.backward()
    optimizer.step()

# gpuopt-env: target-gpu=t4
# fp16 on a T4: the fix adds a GradScaler, unscales before the clip and
# routes the step through the scaler; the scaler is made once, before the
# epoch loop.
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for epoch in range(3):
    for step in range(10):
        x = torch.randn(4, 4096, device="cuda")
        out = model(x)  # want: AMP004
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

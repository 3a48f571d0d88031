# gpuopt-env: target-gpu=h100
import torch

use_amp = True
model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.cuda.amp.GradScaler(enabled=use_amp)  # want: AMP003

for step in range(10):
    x = torch.randn(4, 8, device="cuda")
    with torch.cuda.amp.autocast(enabled=use_amp, dtype=torch.float16):
        loss = model(x).float().sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()

# gpuopt-env: target-gpu=h100
# fp16 autocast with a GradScaler, on a model whose mixing layer (in a
# sibling module) takes FFTs of an autocast activation. Switching to bf16
# would raise "Unsupported dtype BFloat16" at the first forward, so AMP003
# says so and offers no fix.
import torch
import torch.nn as nn

from layers.spectral import FourierMixing

model = nn.Sequential(FourierMixing(64), nn.Linear(64, 1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
scaler = torch.amp.GradScaler("cuda")  # want: AMP003

for step in range(1000):
    x = torch.randn(32, 96, 64, device="cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x).float().pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()

# gpuopt-env: target-gpu=h100
# fp16 autocast with a GradScaler in a project that runs a CuPy RawKernel
# of its own on the activations (ops.py). Such kernels are often written
# for float and half only: AMP003 reports the switch to bf16 with that
# caveat and offers no fix.
import torch
import torch.nn as nn

from ops import ScaledRelu

model = nn.Sequential(nn.Linear(1024, 1024), ScaledRelu(), nn.Linear(1024, 1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
scaler = torch.amp.GradScaler("cuda")  # want: AMP003

for step in range(1000):
    x = torch.randn(256, 1024, device="cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x).float().pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()

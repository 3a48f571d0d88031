import os
os.environ["CUDA_LAUNCH_BLOCKING"] = '1'  # want: OPT006
os.environ.setdefault("CUDA_LAUNCH_BLOCKING", "1")  # want: OPT006
os.environ["CUDA_VISIBLE_DEVICES"] = "0"

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(256, 2048), nn.ReLU(), nn.Linear(2048, 256)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
x = torch.randn(512, 256, device="cuda")
for step in range(20000):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

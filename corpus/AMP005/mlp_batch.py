# gpuopt-env: target-gpu=h100
# A tabular MLP of 2048-wide layers: its matmuls are as large as its
# batch, and TF32 ran such MLPs 0.80-1.07x at batch 256 and 512, 1.79-3.43x
# at 4096 on an H100 (corpus/gpu/amp004_narrow.py wide-tf32). The setting
# is a hint that says so.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(875, 2048), nn.ReLU(), nn.Dropout(0.2), nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 206)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for epoch in range(25):  # want: AMP005
    x = torch.randn(256, 875, device="cuda")
    loss = F.binary_cross_entropy_with_logits(model(x), torch.rand(256, 206, device="cuda"))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

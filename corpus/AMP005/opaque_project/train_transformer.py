# gpuopt-env: target-gpu=h100
# The network comes from a builder function gpuopt does not read through,
# but the project module it comes from is built on matmuls (attention with
# `@`): AMP005 keeps its finding.
import torch

from transformer_model import build_transformer

model = build_transformer(1024, 6).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
for step in range(100):  # want: AMP005
    x = torch.randn(16, 512, 1024, device="cuda")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

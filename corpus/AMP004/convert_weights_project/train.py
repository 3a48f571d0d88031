# gpuopt-env: target-gpu=h100
"""Trains the retrieval model whose backbone modeling.py casts to fp16 with
convert_weights: its convolutions run in fp16 already, so no autocast
advice (blind sample S18P's CLIP4Clip)."""
import torch

from modeling import Retrieval

model = Retrieval().cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
for epoch in range(5):
    for _ in range(1000):
        x = torch.randn(512, 768, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

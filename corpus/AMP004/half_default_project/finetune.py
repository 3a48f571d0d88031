# gpuopt-env: target-gpu=h100
# The model factory of a sibling module builds its weights under a half
# default tensor type, as LLaMA checkpoints are loaded: the forward runs in
# fp16 already, and an autocast wrap has nothing to cast. Silent.
import torch

from llama_factory import build_model

model = build_model()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
weights = next(model.parameters()).dtype

for epoch in range(3):
    for step in range(1000):
        x = torch.randn(4, 512, 4096, device="cuda")
        loss = model(x.to(weights)).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

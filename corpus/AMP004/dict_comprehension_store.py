# gpuopt-env: target-gpu=h100
# A moving-average baseline per video kept in a dict built by a dict
# comprehension (blind sample S32K's vsumm-reinforce): `baselines[key] =
# ...` stores under a key, not into a tensor by index, so the wrap stays
# safe and AMP004 offers it.
import numpy as np
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
keys = [f"video_{i}" for i in range(100)]
baselines = {key: 0.0 for key in keys}

for epoch in range(10):
    for key in keys:
        x = torch.randn(128, 64, 1024, device="cuda")
        out = model(x)  # want: AMP004
        reward = out.pow(2).mean()
        loss = reward - baselines[key]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baselines[key] = 0.9 * baselines[key] + 0.1 * np.mean([reward.item()])

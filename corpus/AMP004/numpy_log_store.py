# gpuopt-env: target-gpu=h100
# Losses logged into a NumPy array by index every step (blind sample
# S33U's LapIRN and ICNet): `lossall[:, step] = np.array([...])` is
# NumPy's write, which autocast never sees, so it does not hold the wrap
# back (the finding named it as a tensor write that would raise).
import numpy as np
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
iterations = 10000
lossall = np.zeros((2, iterations))
step = 0
while step < iterations:
    x = torch.randn(128, 64, 1024, device="cuda")
    out = model(x)  # want: AMP004
    loss = out.pow(2).mean()
    smooth = out.diff(dim=1).abs().mean()
    optimizer.zero_grad()
    (loss + smooth).backward()
    optimizer.step()
    lossall[:, step] = np.array([loss.item(), smooth.item()])
    step += 1

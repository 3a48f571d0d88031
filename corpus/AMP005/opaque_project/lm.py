# gpuopt-env: target-gpu=h100
# The same lookup, but this file multiplies by a 4096×4096 weight of its
# own: a large matmul is shown, and AMP005 keeps its finding.
import torch

import models

model = getattr(models, "resnet34")().cuda()
proj = torch.randn(4096, 4096, device="cuda", requires_grad=True)
optimizer = torch.optim.Adam(list(model.parameters()) + [proj], fused=True)
for epoch in range(10):  # want: AMP005
    feats = torch.randn(512, 4096, device="cuda")
    loss = model(torch.randn(2, 3, 64, 64, device="cuda")).mean() + (feats @ proj).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

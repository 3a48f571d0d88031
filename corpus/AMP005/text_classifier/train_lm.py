# gpuopt-env: target-gpu=h100
# The same factory over a module whose decoder is as wide as the
# embedding's vocabulary: a large matmul per token, which TF32 speeds up.
import torch
import torch.nn as nn

import lm_model as models


def build(name):
    return getattr(models, name)(50000, 300, 128)


net = build("LanguageModel").cuda()
optimizer = torch.optim.Adam(net.parameters(), fused=True)
for epoch in range(5):  # want: AMP005
    for _ in range(1000):
        x = torch.randint(0, 50000, (512, 220), device="cuda")
        loss = nn.functional.cross_entropy(net(x).flatten(0, 1), x.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

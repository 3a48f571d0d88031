# gpuopt-env: target-gpu=h100
# An evaluation-style buffer filled by slice inside the training step:
# `preds[a:b] = out.detach()` is a copy into a view, which converts the
# bf16 output to the fp32 buffer's dtype, not an index_put (blind samples
# S23E and S23F): the wrap stays safe and AMP004 offers it.
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
preds = torch.zeros(100 * 128, 64, 1024, device="cuda")

for epoch in range(10):
    for step in range(100):
        x = torch.randn(128, 64, 1024, device="cuda")
        out = model(x)  # want: AMP004
        a, b = step * 128, (step + 1) * 128
        preds[a:b] = out.detach()
        preds[-1, 0] = out[0, 0].detach()
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

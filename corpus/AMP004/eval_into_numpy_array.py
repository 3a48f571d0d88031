# gpuopt-env: target-gpu=h100
"""An evaluation loop that adds each target's loss, a tensor, into a
NumPy array: NumPy converts the tensor through __array__, which has no
bf16, so a wrap of the forward alone would raise there (TypeError). The
finding says so and leaves the wrap to do by hand."""
import numpy as np
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=1024, nhead=16, batch_first=True), num_layers=12),
    nn.Flatten(),
    nn.LazyLinear(12),
).cuda()


def evaluate(loader):
    model.eval()
    losses = np.zeros(12)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            out = model(x)
            for i in range(12):
                losses[i] += nn.functional.mse_loss(out[:, i], y[:, i]).cpu()
    losses /= len(loader)
    return losses


def train(loader, val_loader):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for epoch in range(100):
        model.train()
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = nn.functional.mse_loss(model(x), y)  # want: AMP004
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        print(evaluate(val_loader))

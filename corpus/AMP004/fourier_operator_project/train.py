"""Trains the Fourier neural operator: no autocast advice, since a bf16
wrap would hand bf16 activations to its FFTs (blind sample S18K's PINO)."""
import torch

from fno import FNO

model = FNO().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(10000):
    x = torch.randn(32, 3, 64, 64, device="cuda")
    y = torch.randn(32, 1, 64, 64, device="cuda")
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

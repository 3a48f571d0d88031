"""Trains the separator: no autocast advice, since a bf16 wrap would raise
at its STFT and at view_as_complex on the first step."""
import torch

from separator import Separator

model = Separator().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
for step in range(10000):
    mixture = torch.randn(8, 2, 44100, device="cuda")
    target = torch.randn(8, 2, 44100, device="cuda")
    loss = (model(mixture) - target).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

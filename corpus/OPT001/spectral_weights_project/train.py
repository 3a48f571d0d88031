"""Adam over a Fourier neural operator whose spectral weights are complex
parameters, made in models/spectral.py and reached through the models
package: fused=True would raise at the first step ("`fused=True` requires
all the params to be floating point Tensors"), so OPT001 says nothing here
(blind sample S29A's PINO)."""
import torch

from models import FNO2d

model = FNO2d(modes=12, width=32).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(500):
    x = torch.randn(8, 1, 64, 64, device="cuda")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

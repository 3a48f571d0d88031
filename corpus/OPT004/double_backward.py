# gpuopt-env: torch=2.4
import torch
from torch import autograd, nn

device = "cuda"
disc = nn.Sequential(nn.Linear(64, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1)).to(device)
opt = torch.optim.Adam(disc.parameters(), lr=1e-4)

# An R1 gradient penalty differentiates through the gradient
# (create_graph=True), which torch.compile does not support: no advice to
# compile this model.
for step in range(100):
    real = torch.randn(32, 64, device=device, requires_grad=True)
    out = disc(real)
    (grad,) = autograd.grad(outputs=out.sum(), inputs=real, create_graph=True)
    penalty = grad.pow(2).sum(1).mean()
    loss = torch.nn.functional.softplus(-out).mean() + 5 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()

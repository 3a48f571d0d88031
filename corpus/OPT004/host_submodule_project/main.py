# gpuopt-env: torch=2.4
# The model's scorer, a submodule, reads the session sizes on the host in
# its forward (`.cpu().numpy()` for torch.split): compiled, it breaks its
# graph there every step and recompiles as the sizes change, so the model
# handed to train_epoch is not worth compiling (SR-GNN, blind sample S16C).
import torch
from model import *
from steps import train_epoch

device = torch.device("cuda")
model = SessionGraphNet(1024, 40000).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for epoch in range(30):
    train_epoch(model, loader, optimizer, device)

import torch
from torch import nn

# The script refuses any torch but 1.x, which has no fused Adam: no
# advice that needs torch 2.
assert torch.__version__.split('.')[0] == '1'

device = torch.device("cuda")
model = nn.Linear(512, 512).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.randn(64, 512, device=device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

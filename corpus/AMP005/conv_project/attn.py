# gpuopt-env: target-gpu=h100
# This network is linear layers only: TF32 matmuls pay with the batch, so
# the setting comes as a hint that says so.
import torch

from network import AttnHead

device = torch.device("cuda")
head = AttnHead().to(device)
optimizer = torch.optim.Adam(head.parameters(), fused=True)
for epoch in range(10):  # want: AMP005
    x = torch.randn(512, 4096, device=device)
    loss = head(x).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

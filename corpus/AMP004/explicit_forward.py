# gpuopt-env: target-gpu=h100
# A course project calls the model's forward by hand: the same forward pass.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 102)).cuda()
criterion = nn.NLLLoss()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(100):
    inputs = torch.randn(64, 4096, device="cuda")
    labels = torch.randint(0, 102, (64,), device="cuda")
    optimizer.zero_grad()
    output = model.forward(inputs)  # want: AMP004
    loss = criterion(output, labels)
    loss.backward()
    optimizer.step()

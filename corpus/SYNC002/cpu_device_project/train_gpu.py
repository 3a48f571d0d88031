# Another script of the project, which trains on CUDA: the project names
# CUDA, but hate_model.py builds its own device as the CPU.
import torch
import torch.nn as nn

device = torch.device("cuda")
model = nn.Sequential(nn.Linear(768, 768), nn.ReLU(), nn.Linear(768, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), fused=True)
total = 0.0
for step in range(1000):
    x = torch.randn(64, 768, device=device)
    print(f"step {step}")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.item()
print(total)

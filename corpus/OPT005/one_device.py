# gpuopt-env: target-gpu=h100
# DataParallel over one device: the wrapper calls the module directly,
# replicating and gathering nothing, so OPT005 says nothing (blind sample
# S15I's denoising CNN).
import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(1, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 1, 3, padding=1))
model = nn.DataParallel(net, device_ids=[0]).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(50):
    for _ in range(1000):
        x = torch.randn(128, 1, 40, 40, device="cuda")
        loss = nn.functional.mse_loss(model(x + 0.1 * torch.randn_like(x)), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

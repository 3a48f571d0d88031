# gpuopt-env: target-gpu=h100
# The script pickles the whole model (torch.save(model)), as LSTNet does: a
# compiled module is an OptimizedModule wrapper, so the finding says to
# pickle model._orig_mod and writes no fix.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv1d(8, 256, 3, padding=1), nn.ReLU(), nn.Conv1d(256, 8, 3, padding=1)).cuda()  # want: OPT004
opt = torch.optim.Adam(model.parameters(), fused=True)
torch.backends.cudnn.benchmark = True
for epoch in range(10):
    for step in range(10000):
        x = torch.randn(64, 8, 168, device="cuda")
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model, "model.pt")

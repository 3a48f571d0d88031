# gpuopt-env: target-gpu=h100
import torch

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.amp.GradScaler("cuda")  # want: AMP003

for step in range(10):
    x = torch.randn(4, 8, device="cuda")
    with torch.autocast("cuda"):
        loss = model(x).float().sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()

# gpuopt-env: target-gpu=h100 torch=1.6
# torch 1.6's autocast takes no dtype: there is no bf16 autocast to switch
# to before 1.10.
import torch

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.cuda.amp.GradScaler()

for step in range(10):
    x = torch.randn(4, 8, device="cuda")
    with torch.cuda.amp.autocast():
        loss = model(x).float().sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()

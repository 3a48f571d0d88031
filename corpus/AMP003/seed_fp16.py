# gpuopt-env: target-gpu=h100
import torch
from torch import nn

model = nn.Linear(16, 4).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters())
loader = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]

# Seed 003, "混合精度训练实战": fp16 autocast with a GradScaler; on a GPU of
# compute capability >= 8.0 bf16 needs no scaler.
scaler = torch.cuda.amp.GradScaler()  # want: AMP003
for data, target in loader:
    data, target = data.cuda(), target.cuda()
    optimizer.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        output = model(data)
        loss = criterion(output, target)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()

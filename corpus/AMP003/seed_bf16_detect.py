# gpuopt-env: target-gpu=h100
import torch
from torch import nn
from torch.amp import autocast, GradScaler

model = nn.Linear(16, 4).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
loader = [(torch.randn(8, 16, device="cuda"), torch.randint(0, 4, (8,), device="cuda")) for _ in range(4)]

# Seed 000, "BF16 (preferred) vs FP16": already the after form; silent.
if torch.cuda.is_bf16_supported():
    amp_dtype = torch.bfloat16  # Ampere+ GPUs support BF16
else:
    amp_dtype = torch.float16
scaler = GradScaler('cuda') if amp_dtype == torch.float16 else None
for input_ids, targets in loader:
    with autocast('cuda', dtype=amp_dtype):
        output = model(input_ids)
        loss = criterion(output, targets)
    if scaler:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()

# gpuopt-env: target-gpu=t4
import torch

# A T4 (sm_75) has no native bf16: fp16 + GradScaler is right there.
model = torch.nn.Linear(8, 2).cuda()
scaler = torch.amp.GradScaler("cuda")
with torch.autocast("cuda"):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
scaler.scale(loss).backward()

# gpuopt-env: target-gpu=h100
import torch

model = torch.nn.Linear(8, 2).cuda()
amp_dtype = torch.float16 if model.training else torch.bfloat16
scaler = torch.amp.GradScaler("cuda")
# A dtype chosen at run time: not rewritten.
with torch.autocast("cuda", dtype=amp_dtype):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
scaler.scale(loss).backward()

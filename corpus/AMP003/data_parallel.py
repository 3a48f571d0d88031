# gpuopt-env: target-gpu=h100
# fp16 autocast with a GradScaler around a model wrapped in nn.DataParallel
# across the visible GPUs (blind sample S22G's tunesformer). DataParallel's
# replica threads re-enter autocast with enabled= only, so they run fp16
# whatever dtype the main thread asks for: switching to bf16 and turning
# the scaler off would train fp16 without loss scaling on more than one
# GPU. AMP003 reports the switch with that caveat and offers no fix.
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(768, 12, batch_first=True), 12)
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
model = model.cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
scaler = torch.amp.GradScaler("cuda")  # want: AMP003

for step in range(1000):
    x = torch.randn(8, 512, 768, device="cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x).float().pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()

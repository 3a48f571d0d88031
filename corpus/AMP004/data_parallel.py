# gpuopt-env: target-gpu=h100
# An fp32 training step of a model wrapped in nn.DataParallel: a bf16
# wrap in the main thread would not reach the replicas, whose threads
# re-enter autocast with enabled= only and run fp16, without a scaler.
# AMP004's wrap asks the model's modules and stays off where one is a
# DataParallel over several GPUs (on one GPU it runs in the main thread).
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(768, 12, batch_first=True), 12)
model = nn.DataParallel(model).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)

for step in range(1000):
    x = torch.randn(8, 512, 768, device="cuda")
    loss = model(x).pow(2).mean()  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

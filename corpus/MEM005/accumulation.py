# gpuopt-env: target-gpu=h100
# nanoGPT's shape: a micro-batch with gradient accumulation is deliberate.
import torch

batch_size = 12
gradient_accumulation_steps = 40
model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for it in range(10):
    for micro in range(gradient_accumulation_steps):
        loss = model(torch.randn(batch_size, 8, device='cuda')).sum() / gradient_accumulation_steps
        loss.backward()
    optimizer.step()

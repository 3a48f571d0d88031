# gpuopt-env: target-gpu=h100
import torch
from torch import nn

# Seed 003, "数值不稳定的五种应对策略": TF32 enabled through the backend
# flags; AMP005 must stay silent.
torch.backends.cudnn.allow_tf32 = True  # 启用TensorFloat-32
torch.backends.cuda.matmul.allow_tf32 = True

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(10):
    loss = model(torch.randn(8, 16, device="cuda")).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# gpuopt-env: target-gpu=h100
# No training loop (inference only), so no batch-size advice.
import torch

batch_size = 32
model = torch.nn.Linear(8, 2).cuda().eval()
with torch.no_grad():
    for i in range(10):
        out = model(torch.randn(batch_size, 8, device='cuda'))

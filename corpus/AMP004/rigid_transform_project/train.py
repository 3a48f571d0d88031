# gpuopt-env: target-gpu=h100
# Trains the registration network of registration.py, whose forward takes
# torch.svd of a covariance built by a matmul. Under a bf16 wrap that
# covariance is bf16, for which svd has no CUDA kernel, so the wrap would
# raise at the first step (blind sample S26L's RPMNet): AMP004 reports the
# step, names the SVD, and offers no wrap.
import torch

from registration import Registration

model = Registration().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
for step in range(20000):
    src = torch.randn(16, 1024, 3, device="cuda")
    dst = torch.randn(16, 1024, 3, device="cuda")
    rotation, translation = model(src, dst)  # want: AMP004
    loss = (rotation - torch.eye(3, device="cuda")).pow(2).mean() + translation.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

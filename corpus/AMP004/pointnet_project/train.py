# gpuopt-env: target-gpu=h100
# Trains a PointNet pose regressor (pointnet.py): 1x1 Conv1d layers over
# 1024 points at batch 20. bf16 autocast ran 0.88-1.02× on such a network
# (corpus/gpu/amp004_conv1d.py on an H200), and channels_last does not
# apply to Conv1d: AMP004 stays silent (blind sample S26L's PCRNet).
import torch

from pointnet import PoseRegressor

model = PoseRegressor().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(10000):
    template = torch.randn(20, 1024, 3, device="cuda")
    source = torch.randn(20, 1024, 3, device="cuda")
    pose = model(template, source)
    loss = pose.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# A 3x3x3 convolution of a sibling module: reported.
import torch

from encoders import VoxelEncoder

model = VoxelEncoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(100):  # want: OPT003
    for step in range(500):
        voxels = torch.randn(8, 1, 32, 32, 32, device="cuda")
        loss = model(voxels).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

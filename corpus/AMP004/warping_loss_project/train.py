# gpuopt-env: target-gpu=h100
"""Trains depth and pose networks through a photometric loss that warps
images by coordinates computed with matmuls (blind samples S18L's
SfmLearner, S19A's SC-SfMLearner): autocast pays for the networks, but a
wrap of the loss would round pixel coordinates in bf16, so the finding
says to wrap the networks only, and comes without a fix."""
import torch
import torchvision

from warp import photometric_loss

disp_net = torchvision.models.resnet50(num_classes=832 * 256).cuda()
pose_net = torchvision.models.resnet50(num_classes=12).cuda()
optimizer = torch.optim.Adam(list(disp_net.parameters()) + list(pose_net.parameters()), fused=True)
for step in range(100000):
    tgt = torch.rand(4, 3, 256, 832, device="cuda")
    ref = torch.rand(4, 3, 256, 832, device="cuda")
    intrinsics = torch.eye(3, device="cuda").expand(4, 3, 3)
    depth = disp_net(tgt).view(4, 1, 256, 832).sigmoid() * 80  # want: AMP004
    pose = pose_net(torch.cat([tgt, ref], 1)[:, :3]).view(4, 3, 4)
    loss = photometric_loss(tgt, ref, depth, pose, intrinsics)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

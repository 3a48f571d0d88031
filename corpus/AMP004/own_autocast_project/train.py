# gpuopt-env: target-gpu=h100
# The network of flow.py runs autocast regions of its own: an outer wrap
# is switched off inside them and would downcast what the authors keep in
# fp32; the project's --mixed_precision flag is the switch. No finding.
import argparse

import torch
import torch.nn.functional as F

from flow import FlowNet

parser = argparse.ArgumentParser()
parser.add_argument("--mixed_precision", action="store_true")
args = parser.parse_args()
model = FlowNet(args).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4, fused=True)
for step in range(100000):
    image1 = torch.randn(6, 3, 368, 496, device="cuda")
    image2 = torch.randn(6, 3, 368, 496, device="cuda")
    flow = torch.randn(6, 2, 368, 496, device="cuda")
    loss = F.l1_loss(model(image1, image2), flow)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# gpuopt-env: target-gpu=h100
# Silent: no network here is a convolutional one under autocast.
import torch
import torch.nn as nn
import torchvision


def resnet50():
    # A local function that happens to share torchvision's name.
    return nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))


mlp = resnet50().cuda()
vit = torchvision.models.vit_b_16().cuda()
cnn_fp32 = torchvision.models.resnet18().cuda()
opt = torch.optim.AdamW(list(mlp.parameters()) + list(vit.parameters()))

for step in range(10):
    x = torch.randn(32, 512, device="cuda")
    img = torch.randn(32, 3, 224, 224, device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = mlp(x).sum() + vit(img).sum()
    loss.backward()
    opt.step()
    # The ResNet runs in fp32 (no autocast): channels_last is not offered.
    cnn_fp32(img).sum().backward()

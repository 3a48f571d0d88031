# gpuopt-env: target-gpu=h100
# Neural style transfer: VGG-19's convolutions (TF32 in cuDNN already), and
# Gram matrices of their feature maps, channels x pixels x channels
# matmuls as large as the maps: full-fp32 matmuls that TF32 speeds up.
import torch
import torchvision


def gram(features):
    _, c, h, w = features.size()
    f = features.view(c, h * w)
    return torch.mm(f, f.t()) / (c * h * w)


vgg = torchvision.models.vgg19(weights=None).features[:29].cuda().eval()
content = torch.rand(1, 3, 512, 512, device="cuda")
style = torch.rand(1, 3, 512, 512, device="cuda")
target = content.clone().requires_grad_(True)
optimizer = torch.optim.Adam([target], lr=0.003)
for step in range(2000):  # want: AMP005
    loss = (gram(vgg(target)) - gram(vgg(style))).pow(2).sum() + (vgg(target) - vgg(content)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

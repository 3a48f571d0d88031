# gpuopt-env: target-gpu=h100
# The network (network.py) is convolutions only: cuDNN already runs fp32
# convolutions in TF32, so the matmul precision setting has nothing to do.
import torch

from network import U_Net

device = torch.device("cuda")
unet = U_Net(img_ch=3, output_ch=1).to(device)
optimizer = torch.optim.Adam(unet.parameters(), lr=2e-4, fused=True)
for epoch in range(10):
    images = torch.randn(4, 3, 64, 64, device=device)
    loss = unet(images).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

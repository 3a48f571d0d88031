# gpuopt-env: target-gpu=h100
import torch

from model import UNet

model = UNet(n_channels=3, n_classes=2).cuda()  # want: OPT004
opt = torch.optim.Adam(model.parameters(), fused=True)
torch.backends.cudnn.benchmark = True
for step in range(100000):
    x = torch.randn(8, 3, 128, 128, device="cuda")
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

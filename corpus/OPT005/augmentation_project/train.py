# The segmentation network is reported; the augmentation module beside it
# builds no layer and no parameter (affine_grid, grid_sample), so
# DistributedDataParallel would refuse it: no finding on its wrapper.
import torch
import torch.nn as nn

from augment import Aug


def build():
    net = nn.Sequential(nn.Conv2d(1, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 1, 3, padding=1))
    aug = Aug(flip=True)
    if torch.cuda.device_count() > 1:
        net = nn.DataParallel(net)  # want: OPT005
        aug = nn.DataParallel(aug)
    return net.to("cuda"), aug.to("cuda")


net, aug = build()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(100):
    loss = net(aug(torch.randn(8, 1, 64, 64, device="cuda"))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

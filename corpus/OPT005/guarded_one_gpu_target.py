# gpuopt-env: target-gpu=h100
# The profile is one H100: a DataParallel wrap that runs only on several
# GPUs never runs there, so OPT005 says nothing about it (blind samples
# S29C's dataset condensation and S29D's BraTS U-Net). The second wrap
# names two devices, so the code asks for several GPUs: reported.
import torch
from torch import nn

gpu_num = torch.cuda.device_count()
net = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)).cuda()
if gpu_num > 1:
    net = nn.DataParallel(net)
head = nn.DataParallel(nn.Linear(512, 10).cuda(), device_ids=[0, 1])  # want: OPT005
optimizer = torch.optim.SGD(list(net.parameters()) + list(head.parameters()), lr=0.1)
for step in range(1000):
    x = torch.randn(64, 3, 32, 32, device="cuda")
    loss = net(x).sum() + head(torch.randn(64, 512, device="cuda")).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

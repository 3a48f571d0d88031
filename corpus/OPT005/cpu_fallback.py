# A detector's training script that handles machines without a GPU: the
# DataParallel of the CPU branch does nothing and is not reported twice.
import torch
from torch import nn

retinanet = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())
if torch.cuda.is_available():
    retinanet = torch.nn.DataParallel(retinanet).cuda()  # want: OPT005
else:
    retinanet = torch.nn.DataParallel(retinanet)
if not torch.cuda.is_available():
    head = torch.nn.DataParallel(nn.Linear(8, 2))
optimizer = torch.optim.Adam(retinanet.parameters(), lr=1e-5)
for step in range(10):
    loss = retinanet(torch.randn(2, 3, 32, 32)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

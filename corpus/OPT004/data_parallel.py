"""A model wrapped in nn.DataParallel: over several GPUs it replicates
the module every step, which compile does not follow, so the finding
says to compile the inner module or move to DDP first, and offers no
edit."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

model = torchvision.models.resnet50()  # want: OPT004
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
model = model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, fused=True)


def train(loader):
    for x, y in loader:
        loss = F.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

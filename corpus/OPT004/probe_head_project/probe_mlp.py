# The helper runs the frozen backbone under no_grad and trains a wide MLP
# head on its features: the head is the model trained, and the one
# reported, not the backbone handed first.
import torch
import torch.nn as nn
import torchvision


def train(loader, backbone, head, optimizer):
    for x, y in loader:
        with torch.no_grad():
            feat = backbone(x.cuda())
        loss = nn.functional.cross_entropy(head(feat), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


backbone = torchvision.models.resnet50().cuda().eval()
head = nn.Sequential(nn.Linear(1000, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 1000)).cuda()  # want: OPT004
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(100):
    train(loader, backbone, head, optimizer)

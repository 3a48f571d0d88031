# gpuopt-env: target-gpu=h100
# A script trains, then runs one test pass at the end: that pass is a
# small share of the run, and autocast there is not worth a finding. The
# training step gets the wrap. (An evaluation before the training, as in
# a --testOnly branch whose evaluation is the whole run, keeps it.)
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 40)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
train_loader = [(torch.randn(32, 3, 64, 64), torch.randint(0, 40, (32,))) for _ in range(10)]
test_loader = train_loader
for epoch in range(250):
    for points, target in train_loader:
        points, target = points.cuda(non_blocking=True), target.cuda(non_blocking=True)
        loss = F.cross_entropy(model(points), target)  # want: AMP004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

total_correct = 0
model.eval()
with torch.no_grad():
    for points, target in test_loader:
        points, target = points.cuda(non_blocking=True), target.cuda(non_blocking=True)
        pred = model(points).argmax(1)
        total_correct += (pred == target).sum()
print(total_correct.item())

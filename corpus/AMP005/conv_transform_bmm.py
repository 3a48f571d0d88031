# gpuopt-env: target-gpu=h100
# A point-cloud classifier in the PointNet style: 1-D convolutions over
# the points, a small learned 3×3 transform applied with torch.bmm and a
# classifier head. cuDNN already runs the convolutions in TF32; the bmm is
# a 3×3 transform and the head a few hundred wide, no softmax beside them,
# no attention: the matmul setting has nothing to speed up, so no finding.
# (A bmm beside a softmax, attention over positions, keeps it:
# conv_attention.py.)
import torch
import torch.nn as nn
import torch.nn.functional as F


class InputTransform(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 64, 1)
        self.fc = nn.Linear(64, 9)

    def forward(self, x):
        feats = torch.max(F.relu(self.conv(x)), 2)[0]
        return self.fc(feats).view(-1, 3, 3) + torch.eye(3, device=x.device)


class PointClassifier(nn.Module):
    def __init__(self, k=16):
        super().__init__()
        self.transform = InputTransform()
        self.conv1 = nn.Conv1d(3, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.head = nn.Linear(1024, k)

    def forward(self, x):
        trans = self.transform(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        x = torch.max(self.conv3(x), 2)[0]
        return self.head(x)


model = PointClassifier().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(1000):
    points = torch.randn(32, 3, 2500, device="cuda")
    target = torch.randint(0, 16, (32,), device="cuda")
    loss = F.cross_entropy(model(points), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

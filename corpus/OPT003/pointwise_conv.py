# gpuopt-env: target-gpu=h100
# A point-cloud network whose only convolutions have kernel size 1:
# per-point projections, matrix products over the channels with no
# algorithm for benchmark mode to choose, so OPT003 stays silent (blind
# sample S15F's point-cloud Transformer).
import torch
import torch.nn as nn


class PointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 64, kernel_size=1, bias=False)
        self.conv2 = nn.Conv1d(64, 1024, 1)
        self.head = nn.Linear(1024, 40)

    def forward(self, x):
        return self.head(self.conv2(torch.relu(self.conv1(x))).max(-1).values)


model = PointNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(250):
    for _ in range(300):
        points = torch.randn(32, 3, 1024, device="cuda")
        labels = torch.randint(0, 40, (32,), device="cuda")
        loss = nn.functional.cross_entropy(model(points), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

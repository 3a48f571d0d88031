# gpuopt-env: target-gpu=h100
# The network flattens with .view(): on a channels_last activation larger
# than 1x1 that raises, so the conversion is only offered as a hint.
import torch
import torch.nn as nn


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
        return self.fc(x.view(x.size(0), -1))


model = LeNet().cuda()  # want: MEM006
opt = torch.optim.Adam(model.parameters())
for step in range(100):
    x = torch.randn(64, 1, 28, 28, device="cuda")
    y = torch.randint(0, 10, (64,), device="cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

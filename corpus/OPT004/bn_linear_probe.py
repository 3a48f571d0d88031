# gpuopt-env: target-gpu=h100
# A linear probe whose head is a BatchNorm, pooling and one nn.Linear on
# top of a frozen backbone run under no_grad (blind sample S17A's SwAV
# RegLog): normalization scales features elementwise, the head is still
# one matmul, and neither torch.compile nor fused SGD pays.
import torch
import torch.nn as nn
import torchvision


class RegLog(nn.Module):
    """Logistic regression on top of frozen features."""

    def __init__(self, num_labels, use_bn=True):
        super().__init__()
        self.av_pool = nn.AvgPool2d(6, stride=1)
        self.bn = nn.BatchNorm2d(2048) if use_bn else None
        self.linear = nn.Linear(8192, num_labels)

    def forward(self, x):
        x = self.av_pool(x)
        if self.bn is not None:
            x = self.bn(x)
        return self.linear(x.view(x.size(0), -1))


backbone = torchvision.models.resnet50().cuda().eval()
backbone.fc = nn.Identity()
reglog = RegLog(1000).cuda()
optimizer = torch.optim.SGD(reglog.parameters(), lr=0.3, momentum=0.9, weight_decay=1e-6)
for epoch in range(100):
    for inp, target in loader:
        inp, target = inp.cuda(non_blocking=True), target.cuda(non_blocking=True)
        with torch.no_grad():
            output = backbone(inp)
        loss = nn.functional.cross_entropy(reglog(output), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# gpuopt-env: target-gpu=h100
# A face-recognition CNN with an additive-margin head: the head multiplies
# the normalised features by its own class weights with F.linear, a head
# beside the convolutions that cuDNN already runs in TF32 (blind sample
# S14C judged AMP005 false on ArcFace's).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.features(x)


class MarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.35):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s, self.m = s, m

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        one_hot = F.one_hot(label, cosine.size(1)).float()
        return self.s * (cosine - one_hot * self.m)


num_classes = 10000
model = Backbone().cuda()
metric_fc = MarginProduct(128, num_classes).cuda()
optimizer = torch.optim.SGD([{"params": model.parameters()}, {"params": metric_fc.parameters()}], lr=0.1, fused=True)
for epoch in range(50):
    for _ in range(500):
        x = torch.randn(16, 3, 112, 112, device="cuda")
        y = torch.randint(0, num_classes, (16,), device="cuda")
        loss = F.cross_entropy(metric_fc(model(x), y), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

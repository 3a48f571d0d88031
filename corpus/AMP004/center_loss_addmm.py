# gpuopt-env: target-gpu=h100
# A facial-expression network trained with a center (affinity) loss whose
# forward updates a distance matrix in place: `distmat.addmm_(x,
# self.centers.t())`. Autocast casts none of an in-place op's operands, so
# under a bf16 wrap the bf16 features meet the fp32 centers and the first
# step raises "mat1 and mat2 must have the same dtype" (blind sample
# S23A's DAN). AMP004 reports the step, names the line, and offers no wrap.
import torch
import torch.nn as nn
import torchvision


class AffinityLoss(nn.Module):
    def __init__(self, num_class=7, feat_dim=512):
        super().__init__()
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.centers = nn.Parameter(torch.randn(num_class, feat_dim))

    def forward(self, x, labels):
        x = self.gap(x).view(x.size(0), -1)
        n = x.size(0)
        distmat = torch.pow(x, 2).sum(dim=1, keepdim=True).expand(n, 7) + \
            torch.pow(self.centers, 2).sum(dim=1, keepdim=True).expand(7, n).t()
        distmat.addmm_(x, self.centers.t(), beta=1, alpha=-2)
        mask = labels.unsqueeze(1).eq(torch.arange(7, device=x.device))
        return (distmat * mask.float()).clamp(min=1e-12).sum() / n


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        resnet = torchvision.models.resnet50()
        self.features = nn.Sequential(*list(resnet.children())[:-2])
        self.fc = nn.Linear(2048, 7)

    def forward(self, x):
        feat = self.features(x)
        return self.fc(feat.mean((2, 3))), feat


model = Net().cuda()
criterion_cls = nn.CrossEntropyLoss()
criterion_af = AffinityLoss(feat_dim=2048).cuda()
optimizer = torch.optim.SGD(list(model.parameters()) + list(criterion_af.parameters()), lr=0.1)
loader = torch.utils.data.DataLoader(torchvision.datasets.FakeData(transform=torchvision.transforms.ToTensor()), batch_size=64, num_workers=8, pin_memory=True, persistent_workers=True)

for epoch in range(40):
    for imgs, targets in loader:
        imgs, targets = imgs.cuda(non_blocking=True), targets.cuda(non_blocking=True)
        optimizer.zero_grad()
        out, feat = model(imgs)  # want: AMP004
        loss = criterion_cls(out, targets) + criterion_af(feat, targets)
        loss.backward()
        optimizer.step()

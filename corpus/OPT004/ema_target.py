# gpuopt-env: target-gpu=h100
# BYOL's shape: the optimizer steps the online network and the predictor;
# the target network is an EMA copy that no optimizer steps. It is not
# trained, so OPT004 says nothing about compiling it for training.
import torch
import torch.nn as nn
import torchvision


class MLPHead(nn.Module):
    def __init__(self, in_channels=512, hidden=4096, out=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_channels, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, out))

    def forward(self, x):
        return self.net(x)


device = "cuda" if torch.cuda.is_available() else "cpu"
online_network = torchvision.models.resnet50().to(device)  # want: OPT004
predictor = MLPHead(1000).to(device)  # want: OPT004
target_network = torchvision.models.resnet50().to(device)
optimizer = torch.optim.SGD(list(online_network.parameters()) + list(predictor.parameters()), lr=0.03, fused=True)
torch.backends.cudnn.benchmark = True
for step in range(100000):
    x1 = torch.randn(64, 3, 224, 224, device=device)
    x2 = torch.randn(64, 3, 224, 224, device=device)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        p1 = predictor(online_network(x1))
        with torch.no_grad():
            z2 = target_network(x2)
        loss = 2 - 2 * nn.functional.cosine_similarity(p1, z2.detach(), dim=-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for pt, po in zip(target_network.parameters(), online_network.parameters()):
            pt.mul_(0.99).add_(po, alpha=0.01)

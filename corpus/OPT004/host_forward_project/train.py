# gpuopt-env: torch=2.4
# The aligner's forward hands its scores to NumPy (align.maximum_path)
# every step: torch.compile breaks its graph there each time, so there is
# little to fuse and no advice to compile it. The plain classifier is
# reported.
import torch
import torch.nn as nn
import torch.nn.functional as F

from align import maximum_path

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Aligner(nn.Module):
    def __init__(self, dim=192):
        super().__init__()
        self.text = nn.Linear(dim, dim)
        self.audio = nn.Linear(dim, dim)

    def forward(self, x, y, mask):
        scores = self.text(x) @ self.audio(y).transpose(1, 2)
        path = maximum_path(scores, mask)
        return (scores * path).sum()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(192, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10))

    def forward(self, x):
        return self.net(x)


aligner = Aligner().to(device)
classifier = Classifier().to(device)  # want: OPT004
opt = torch.optim.Adam(list(aligner.parameters()) + list(classifier.parameters()), fused=True)
for step in range(100000):
    x = torch.randn(8, 50, 192, device=device)
    y = torch.randn(8, 80, 192, device=device)
    mask = torch.ones(8, 50, 80, device=device)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = -aligner(x, y, mask) + F.cross_entropy(classifier(x.mean(1)), torch.zeros(8, dtype=torch.long, device=device))
    opt.zero_grad()
    loss.backward()
    opt.step()

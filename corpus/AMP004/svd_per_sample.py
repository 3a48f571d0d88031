# gpuopt-env: target-gpu=h100
# A closest-point head that takes the SVD of each sample's covariance in
# its forward (blind sample S26L's DCP): under bf16 autocast the matmul's
# output is bf16 and torch.svd raises, so AMP004 reports the step with no
# wrap. The flow's inverse of its own weight stays fp32 under autocast and
# would not hold the wrap back.
import torch
import torch.nn as nn


class Invertible(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.eye(width))

    def forward(self, x):
        return x @ torch.inverse(self.weight)


class ClosestPoint(nn.Module):
    def __init__(self, width=1024):
        super().__init__()
        self.embed = nn.Linear(3, width)
        self.mix = Invertible(width)
        self.attend = nn.TransformerEncoderLayer(width, 16, 4096, batch_first=True)

    def forward(self, src, dst):
        es, ed = self.attend(self.mix(self.embed(src))), self.attend(self.mix(self.embed(dst)))
        scores = torch.softmax(es @ ed.transpose(1, 2) / es.shape[-1] ** 0.5, dim=-1)
        corr = scores @ dst
        rotations = []
        for i in range(src.shape[0]):
            h = (src[i] - src[i].mean(0)).t() @ (corr[i] - corr[i].mean(0))
            u, _, v = torch.svd(h)
            rotations.append(v @ u.t())
        return torch.stack(rotations)


model = ClosestPoint().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(10000):
    src = torch.randn(32, 1024, 3, device="cuda")
    dst = torch.randn(32, 1024, 3, device="cuda")
    loss = (model(src, dst) - torch.eye(3, device="cuda")).pow(2).mean()  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

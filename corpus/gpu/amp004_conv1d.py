"""bf16 autocast (AMP004) on point-cloud networks built from Conv1d
layers, at the batch sizes blind sample S26L's registration projects train
with (PCRNet at 20, DCP at 32) and a larger one: one Adam training step of
a PointNet classifier (Conv1d 3-64-64-64-128-1024 with BatchNorm, max
pool, 512-256-40 head) over 1024 points, fp32 against bf16 autocast,
alternating. channels_last does not apply to Conv1d's 3-D tensors.

    python corpus/gpu/amp004_conv1d.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import pair

DEV = "cuda"


class PointNet(nn.Module):
    def __init__(self, classes=40):
        super().__init__()
        widths = [3, 64, 64, 64, 128, 1024]
        self.convs = nn.ModuleList(nn.Conv1d(a, b, 1) for a, b in zip(widths, widths[1:]))
        self.norms = nn.ModuleList(nn.BatchNorm1d(b) for b in widths[1:])
        self.head = nn.Sequential(nn.Linear(1024, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Linear(512, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, classes))

    def forward(self, x):  # x: (B, 3, N)
        for conv, norm in zip(self.convs, self.norms):
            x = F.relu(norm(conv(x)))
        return self.head(x.max(dim=2).values)


def step_fn(model, x, y, bf16):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
            loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    return step


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    for batch in (20, 32, 128):
        torch.manual_seed(0)
        model = PointNet().to(DEV)
        x = torch.randn(batch, 3, 1024, device=DEV)
        y = torch.randint(0, 40, (batch,), device=DEV)
        fp32, bf16 = pair(step_fn(model, x, y, False), step_fn(model, x, y, True), 50, warmup=10)
        print(f"PointNet b{batch} 1024 points: fp32 {fp32 * 1e3:.2f} ms, bf16 {bf16 * 1e3:.2f} ms ({fp32 / bf16:.2f}x)")


if __name__ == "__main__":
    main()

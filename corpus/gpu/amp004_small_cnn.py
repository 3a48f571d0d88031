"""bf16 autocast (AMP004) on small image CNNs at the batch sizes blind
samples S26C and S26E trained them with: one SGD training step in fp32
against the step under bf16 autocast, NCHW and channels_last, alternating.
Uses torchvision's models when installed (efficientnet_b0, mobilenet_v3,
resnet18), else a hand-written ResNet-18.

    python corpus/gpu/amp004_small_cnn.py
    python corpus/gpu/amp004_small_cnn.py --batches 2 8 --sizes 224 512 --models resnet50 efficientnet_b0

(the second: the tiny batches blind sample S40A's glaucoma classifier
trains at, batch 2 by its config).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import pair

DEV = "cuda"


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
        self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
        self.short = nn.Sequential() if stride == 1 and cin == cout else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        return F.relu(self.b2(self.c2(F.relu(self.b1(self.c1(x))))) + self.short(x))


def resnet18(classes=1000):
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, classes))


def step_fn(model, x, y, bf16):
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
            loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    return step


def measure(name, build, batch, size=224):
    torch.manual_seed(0)
    model = build().to(DEV)
    x = torch.randn(batch, 3, size, size, device=DEV)
    y = torch.randint(0, 1000, (batch,), device=DEV)
    fp32, bf16 = pair(step_fn(model, x, y, False), step_fn(model, x, y, True), 30, warmup=5)
    model = model.to(memory_format=torch.channels_last)
    xcl = x.contiguous(memory_format=torch.channels_last)
    fp32cl, bf16cl = pair(step_fn(model, xcl, y, False), step_fn(model, xcl, y, True), 30, warmup=5)
    print(f"{name} b{batch} {size}px: fp32 {fp32 * 1e3:.2f} ms, bf16 {bf16 * 1e3:.2f} ms ({fp32 / bf16:.2f}x); "
          f"channels_last fp32 {fp32cl * 1e3:.2f} ms, bf16 {bf16cl * 1e3:.2f} ms ({fp32 / bf16cl:.2f}x of NCHW fp32)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, nargs="+", default=[32, 128])
    ap.add_argument("--sizes", type=int, nargs="+", default=[224])
    ap.add_argument("--models", nargs="+", default=None)
    args = ap.parse_args()
    print(torch.__version__, torch.cuda.get_device_name())
    torch.backends.cudnn.benchmark = True
    builds = {"resnet18 (hand-written)": resnet18}
    try:
        import torchvision.models as tvm
        builds = {"efficientnet_b0": tvm.efficientnet_b0, "mobilenet_v3_large": tvm.mobilenet_v3_large, "resnet18": tvm.resnet18, "resnet50": tvm.resnet50}
    except ImportError:
        print("torchvision not installed: hand-written ResNet-18 only")
    for name, build in builds.items():
        if args.models and name not in args.models:
            continue
        for size in args.sizes:
            for batch in args.batches:
                measure(name, build, batch, size)


if __name__ == "__main__":
    main()

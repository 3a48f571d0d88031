"""OPT001 for SGD: what fused=True gains over the default (foreach) step
for plain SGD (momentum 0, no weight decay) and for SGD with momentum,
weight decay or both, on parameter lists shaped like a ResNet-50 (161 tensors,
25.6M parameters) and a small CNN (10 tensors, ~0.6M), with AdamW on the
same lists for reference.

    python3 corpus/gpu/opt001_sgd.py

Medians of 200 optimizer steps after warm-up, the device synchronised
around each (timing.pair alternates foreach and fused).
"""

import torch

from timing import pair

dev = torch.device("cuda")


def resnet50_shapes():
    """Parameter shapes of torchvision's resnet50 (convs, BN weight/bias, fc)."""
    shapes = [(64, 3, 7, 7), (64,), (64,)]
    cin = 64
    for width, blocks in ((64, 3), (128, 4), (256, 6), (512, 3)):
        for b in range(blocks):
            shapes += [(width, cin, 1, 1), (width,), (width,),
                       (width, width, 3, 3), (width,), (width,),
                       (width * 4, width, 1, 1), (width * 4,), (width * 4,)]
            if b == 0:
                shapes += [(width * 4, cin, 1, 1), (width * 4,), (width * 4,)]
            cin = width * 4
    return shapes + [(1000, 2048), (1000,)]


def small_cnn_shapes():
    return [(32, 3, 3, 3), (32,), (64, 32, 3, 3), (64,), (128, 64, 3, 3), (128,),
            (256, 128, 3, 3), (256,), (10, 4096), (10,)]


def params(shapes):
    ps = [torch.nn.Parameter(torch.randn(s, device=dev) * 0.01) for s in shapes]
    for p in ps:
        p.grad = torch.randn_like(p) * 1e-3
    return ps


def step_time(make, shapes, reps=200):
    a, b = params(shapes), params(shapes)
    fe, fu = make(a, dict(foreach=True)), make(b, dict(fused=True))
    return pair(fe.step, fu.step, reps, warmup=20)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    cases = [
        ("SGD lr=0.1 (momentum 0, no weight decay)", lambda ps, kw: torch.optim.SGD(ps, lr=0.1, **kw)),
        ("SGD lr=0.1 momentum=0.9 weight_decay=5e-4", lambda ps, kw: torch.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=5e-4, **kw)),
        ("SGD lr=0.1 momentum=0.9", lambda ps, kw: torch.optim.SGD(ps, lr=0.1, momentum=0.9, **kw)),
        ("SGD lr=0.1 weight_decay=5e-4 (momentum 0)", lambda ps, kw: torch.optim.SGD(ps, lr=0.1, weight_decay=5e-4, **kw)),
        ("AdamW lr=1e-3", lambda ps, kw: torch.optim.AdamW(ps, lr=1e-3, **kw)),
    ]
    for label, shapes in (("resnet50-shaped, 161 tensors", resnet50_shapes()), ("small CNN, 10 tensors", small_cnn_shapes())):
        n = sum(torch.Size(s).numel() for s in shapes)
        for name, make in cases:
            before, after = step_time(make, shapes)
            print(f"OPT001 {label} ({n / 1e6:.1f}M params) {name:45} foreach {before * 1e3:7.3f} ms -> fused {after * 1e3:7.3f} ms  {before / after:5.2f}x", flush=True)


if __name__ == "__main__":
    main()

"""AMP005 on convolutional networks with large linear heads: does TF32
for matmuls (torch.set_float32_matmul_precision("high")) speed up the
fp32 training step of a CNN whose linear layers are heads?

cuDNN already runs fp32 convolutions in TF32 by default
(torch.backends.cudnn.allow_tf32), so the setting reaches only the linear
layers. Blind samples S39A, S39S and S39W judged AMP005 false on CNNs
with heads of 2048x2048 and more. This times VGG-16 (its classifier:
25088x4096, 4096x4096, 4096xC, about 120M multiply-adds per image) at
224x224, and four ResNet-18 trunks feeding a 2048x2048 head (S39A's
radar gesture net), fp32 steps with the matmul precision "highest" and
"high", alternating. Prints median ms per step and the speed-up.

    python corpus/gpu/amp005_conv_heads.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

from timing import pair

DEV = "cuda"
STEPS = 10
REPS = 7


class FourViews(nn.Module):
    def __init__(self, classes=8):
        super().__init__()
        self.trunks = nn.ModuleList(nn.Sequential(*list(torchvision.models.resnet18().children())[:-1]) for _ in range(4))
        self.head = nn.Sequential(nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 256), nn.ReLU(), nn.Linear(256, classes))

    def forward(self, x):
        return self.head(torch.cat([t(x).flatten(1) for t in self.trunks], 1))


def run(model, x, y, precision):
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)

    def steps():
        torch.set_float32_matmul_precision(precision)
        for _ in range(STEPS):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
    return steps


def main():
    torch.backends.cudnn.benchmark = True
    print(torch.__version__, torch.cuda.get_device_name(), "cudnn.allow_tf32 =", torch.backends.cudnn.allow_tf32)
    cases = [
        ("VGG-16, 224x224, batch 64", torchvision.models.vgg16(num_classes=1000), torch.randn(64, 3, 224, 224), 1000),
        ("4x ResNet-18 + 2048x2048 head, 224x224, batch 32", FourViews(), torch.randn(32, 3, 224, 224), 8),
    ]
    for name, model, x, classes in cases:
        model = model.to(DEV)
        x = x.to(DEV)
        y = torch.randint(0, classes, (x.size(0),), device=DEV)
        highest, high = pair(run(model, x, y, "highest"), run(model, x, y, "high"), REPS)
        print(f"{name}: highest {highest / STEPS * 1e3:.2f} ms, high {high / STEPS * 1e3:.2f} ms, speed-up {highest / high:.2f}x")
    torch.set_float32_matmul_precision("highest")


if __name__ == "__main__":
    main()

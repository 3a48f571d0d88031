"""XFER002: what non_blocking=True gains on the copies of a pinned batch,
and whether the small ones (a [B] label, a [B, 512] target) matter.

A blocking host-to-device copy (non_blocking=False) of pinned memory is
queued on the stream and then waited for with a stream synchronise: the
host waits for every kernel already queued, whatever the copy's size. So
one small blocking copy at the top of a step drains the previous step's
backward and optimizer before the host can queue anything else.

Three variants of the same training loop over pre-pinned batches (an
image batch, five [B] float64 label vectors and a [B, 512] target, the
shape of blind sample S38E's IMIR-Net step), each a run of STEPS steps:
  blocking   every copy blocking (the code as written)
  image-only the image copy non_blocking, the labels blocking
  all        every copy non_blocking (gpuopt fix --unsafe-fixes)
for a small CNN and a wider one, and for each also a loop that reads
.item() of its loss every step (the host waits there anyway). Prints
median milliseconds per step and the speed-ups against "blocking".

    python corpus/gpu/xfer002_small_copies.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import timed

DEV = "cuda"
STEPS = 40
REPS = 9


def cnn(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.Conv2d(width, 2 * width, 3, 2, 1), nn.BatchNorm2d(2 * width), nn.ReLU(),
        nn.Conv2d(2 * width, 4 * width, 3, 2, 1), nn.BatchNorm2d(4 * width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4 * width, 517)).to(DEV)


def batches(n, b, hw):
    out = []
    for _ in range(n):
        img = torch.randn(b, 3, hw, hw).pin_memory()
        labels = [torch.rand(b, dtype=torch.float64).pin_memory() for _ in range(5)]
        target = torch.rand(b, 512).pin_memory()
        out.append((img, labels, target))
    return out


def run(model, data, image_async, labels_async, item_every_step):
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)

    def epoch():
        for i in range(STEPS):
            img, labels, target = data[i % len(data)]
            x = img.to(DEV, non_blocking=image_async)
            ys = [y.to(DEV, non_blocking=labels_async).float() for y in labels]
            t = target.to(DEV, non_blocking=labels_async)
            out = model(x)
            loss = sum(F.mse_loss(out[:, k], y) for k, y in enumerate(ys)) + F.mse_loss(out[:, 5:], t)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if item_every_step:
                loss.item()

    return timed(epoch, REPS, warmup=2) * 1e3 / STEPS


def main():
    torch.backends.cudnn.benchmark = True
    print(torch.__version__, torch.cuda.get_device_name())
    for name, width, b, hw in (("small CNN, 64x3x64x64", 16, 64, 64), ("small CNN, 8x3x224x224 (IMIR-Net's batch)", 16, 8, 224),
                               ("wider CNN, 64x3x128x128", 64, 64, 128)):
        data = batches(4, b, hw)
        for item in (False, True):
            model = cnn(width)
            blocking = run(model, data, False, False, item)
            image_only = run(model, data, True, False, item)
            every = run(model, data, True, True, item)
            blocking2 = run(model, data, False, False, item)
            base = (blocking + blocking2) / 2
            print(f"{name}{', loss.item() every step' if item else ''}: blocking {blocking:.3f}/{blocking2:.3f} ms, "
                  f"image-only {image_only:.3f} ms ({base / image_only:.2f}x), all {every:.3f} ms ({base / every:.2f}x)")


if __name__ == "__main__":
    main()

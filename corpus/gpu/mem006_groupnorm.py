"""MEM006: does channels_last pay for a convolutional network whose
normalisation layers are GroupNorm rather than BatchNorm?

Blind sample S39E judged MEM006 false on a SimVP nowcasting model (conv
blocks with GroupNorm): GroupNorm's CUDA kernel may want NCHW, so the
layout could add a copy around every norm. This measures a bf16 training
step (forward, backward, Adam) of the same conv stack with GroupNorm and
with BatchNorm, in NCHW and in channels_last, at two sizes. Prints median
milliseconds per step and channels_last's speed-up.

    python corpus/gpu/mem006_groupnorm.py
"""
import torch
import torch.nn as nn

from timing import pair

DEV = "cuda"
STEPS = 20
REPS = 9


def net(norm, width, depth):
    layers = [nn.Conv2d(3, width, 3, 1, 1)]
    for _ in range(depth):
        layers += [nn.Conv2d(width, width, 3, 1, 1),
                   nn.GroupNorm(2, width) if norm == "group" else nn.BatchNorm2d(width),
                   nn.SiLU()]
    layers += [nn.Conv2d(width, 1, 1)]
    return nn.Sequential(*layers).to(DEV)


def step_fn(model, x, y, opt):
    def run():
        for _ in range(STEPS):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = (model(x) - y).pow(2).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
    return run


def main():
    torch.backends.cudnn.benchmark = True
    print(torch.__version__, torch.cuda.get_device_name())
    for width, hw, batch in ((64, 128, 16), (128, 64, 32)):
        for norm in ("group", "batch"):
            torch.manual_seed(0)
            a = net(norm, width, 8)
            b = net(norm, width, 8).to(memory_format=torch.channels_last)
            b.load_state_dict(a.state_dict())
            x = torch.randn(batch, 3, hw, hw, device=DEV)
            y = torch.randn(batch, 1, hw, hw, device=DEV)
            xc = x.contiguous(memory_format=torch.channels_last)
            oa = torch.optim.Adam(a.parameters(), lr=1e-4)
            ob = torch.optim.Adam(b.parameters(), lr=1e-4)
            t0, t1 = pair(step_fn(a, x, y, oa), step_fn(b, xc, y, ob), REPS)
            print(f"{norm:5s}norm width {width} {hw}x{hw} batch {batch}: NCHW {t0 / STEPS * 1e3:.2f} ms, "
                  f"channels_last {t1 / STEPS * 1e3:.2f} ms, speed-up {t0 / t1:.2f}x")


if __name__ == "__main__":
    main()

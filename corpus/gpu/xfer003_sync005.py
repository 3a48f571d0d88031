"""XFER003 equivalence and gains, SYNC005 gains (issue 5 of gpuopt).

    python3 corpus/gpu/xfer003_sync005.py

XFER003: each rewrite form against the NumPy round trip it replaces:
values, dtype, device, and whether the result shares memory with its
source (the reason gpuopt keeps some fixes unsafe). SYNC005: a training loop
that prints loss.item() every step against one that prints every 100 steps.
Needs torch and numpy; CuPy for the XFER003 part. Exit status 1 when an
equivalence check fails.
"""

import io
import sys

import numpy as np
import torch
from torch import nn

from timing import cpu_work, pair

dev = torch.device("cuda")
failed = []


def check(case, ok, detail=""):
    if not ok:
        failed.append(case)
    print(f"{'PASS' if ok else 'FAIL'} {case}{': ' + detail if detail else ''}")


def report(rule, workload, before, after):
    """Print one row; before and after are seconds."""
    b, a = before * 1e3, after * 1e3
    print(f"   {rule:8} {workload:62} {b:10.3f} -> {a:10.3f} ms {b / a:9.2f}x")


def same_tensor(x, y):
    return x.dtype == y.dtype and x.device == y.device and x.shape == y.shape and bool(torch.equal(x, y))


def xfer003():
    try:
        import cupy as cp
    except ImportError:
        print("XFER003: cupy is not installed; skipped")
        return
    a = cp.random.rand(256, 128, dtype=cp.float32)
    b = cp.random.rand(128, 64, dtype=cp.float32)
    for dtype in (cp.float16, cp.float32, cp.float64, cp.int32, cp.int64, cp.uint8, cp.bool_, cp.complex64):
        x = (cp.random.rand(64, 32) * 10).astype(dtype)
        before = torch.from_numpy(cp.asnumpy(x)).cuda()
        after = torch.as_tensor(x, device="cuda")
        check(f"XFER003 cupy->torch {np.dtype(dtype).name}", same_tensor(before, after))
        t = before.clone()
        check(f"XFER003 torch->cupy {np.dtype(dtype).name} cp.array",
              bool((cp.asarray(t.cpu().numpy()) == cp.array(t)).all()) and cp.array(t).dtype == x.dtype)
    # A fresh temporary: zero-copy is invisible; the forms agree.
    before = torch.from_numpy(cp.asnumpy(a @ b)).cuda()
    after = torch.as_tensor(a @ b, device="cuda")
    check("XFER003 fresh a @ b", torch.allclose(before, after))
    # dtype= kept.
    check("XFER003 dtype kept", same_tensor(torch.tensor(cp.asnumpy(a), device="cuda", dtype=torch.float64),
                                            torch.as_tensor(a, device="cuda", dtype=torch.float64)))
    # Sharing: why a name's fix is unsafe (as_tensor / cp.asarray alias) and
    # cp.array's is safe (a fresh copy).
    shared = torch.as_tensor(a, device="cuda")
    a[0, 0] = 42
    check("XFER003 as_tensor of a name shares memory (fix unsafe)", float(shared[0, 0]) == 42.0)
    t = torch.zeros(4, device="cuda")
    alias, copy = cp.asarray(t), cp.array(t)
    t += 1
    check("XFER003 cp.asarray(t) shares memory (fix unsafe)", float(alias[0]) == 1.0)
    check("XFER003 cp.array(t) is a fresh copy (fix safe)", float(copy[0]) == 0.0)
    # A negative-stride view: the host copy made it contiguous; as_tensor
    # may not survive it (in a child process: it can abort the interpreter).
    import subprocess
    code = ("import cupy as cp, torch; f = cp.arange(8, dtype=cp.float32)[::-1]; "
            "print(torch.as_tensor(f, device='cuda').tolist())")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = (r.stdout.strip() or r.stderr.strip()).splitlines()[:2]
    print(f"INFO XFER003 as_tensor(x[::-1]): exit {r.returncode}: {' | '.join(last)}")

    big = cp.random.rand(4096, 4096, dtype=cp.float32)
    tb = torch.randn(4096, 4096, device=dev)
    report("XFER003", "torch 4096x4096 -> cupy: via NumPy vs cp.array (device copy)",
           *pair(lambda: cp.asarray(tb.cpu().numpy()), lambda: cp.array(tb), 10))
    report("XFER003", "cupy 4096x4096 -> torch: via NumPy vs torch.as_tensor",
           *pair(lambda: torch.from_numpy(cp.asnumpy(big)).cuda(), lambda: torch.as_tensor(big, device="cuda"), 10))


def sync005():
    def convnet():
        return nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
            nn.Conv2d(128, 256, 3, stride=2, padding=1), nn.BatchNorm2d(256), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 1000)).to(dev)

    sink = io.StringIO()
    for name, net, batch, work in (("conv net bs32 128px + 1 ms CPU work/step", convnet(), 32, 1.0),
                                   ("conv net bs32 128px, no CPU work", convnet(), 32, 0.0),
                                   ("tiny MLP (launch-bound), no CPU work", None, 32, 0.0)):
        if net is None:
            net = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1000)).to(dev)
            xs = [torch.randn(batch, 64, device=dev) for _ in range(4)]
        else:
            xs = [torch.randn(batch, 3, 128, 128, device=dev) for _ in range(4)]
        ys = [torch.randint(0, 1000, (batch,), device=dev) for _ in range(4)]
        opt = torch.optim.SGD(net.parameters(), lr=0.01)
        crit = nn.CrossEntropyLoss()

        def train(guarded, steps=100):
            for step in range(steps):
                opt.zero_grad(set_to_none=True)
                loss = crit(net(xs[step % 4]), ys[step % 4])
                loss.backward()
                opt.step()
                if not guarded or step % 100 == 0:
                    print(f"step {step}: loss {loss.item():.4f}", file=sink)
                if work:
                    cpu_work(work)
        report("SYNC005", name + ", 100 steps", *pair(lambda: train(False), lambda: train(True), 10))


if __name__ == "__main__":
    if not torch.cuda.is_available():
        sys.exit("needs a CUDA GPU")
    print(f"{torch.cuda.get_device_name()} torch {torch.__version__} CUDA {torch.version.cuda}")
    xfer003()
    sync005()
    sys.exit(1 if failed else 0)

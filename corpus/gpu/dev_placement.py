"""DEV001/DEV002 on a GPU: the code before and after gpuopt's rewrite.

    python3 corpus/gpu/dev_placement.py

DEV002: the corpus case before its fix must fail with a device mismatch and
its golden must run with the model on CUDA. DEV001: a small CNN trained on
the CPU (the script as written) against the same script after the code
action (model and batches on the GPU), in samples per second.
"""

import pathlib
import runpy
import time

import torch
import torch.nn.functional as F
from torch import nn

CORPUS = pathlib.Path(__file__).resolve().parent.parent


def run(path):
    """Run a script; return ("ok", model device) or ("error", message)."""
    try:
        g = runpy.run_path(str(path), run_name="__main__")
    except RuntimeError as e:
        return "error", str(e).splitlines()[0][:100]
    return "ok", str(next(g["model"].parameters()).device)


for case in ["moved_model", "seed_mismatch", "eval_loop"]:
    before = run(CORPUS / "DEV002" / f"{case}.py")
    after = run(CORPUS / "DEV002" / f"{case}.py.golden")
    ok = before[0] == "error" and "device" in before[1] and after == ("ok", "cuda:0")
    print(f"DEV002 {case}: before {before}, after {after}: {'PASS' if ok else 'FAIL'}")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(torch.flatten(x, 1))


def samples_per_second(device, steps=30, bs=128):
    """Median of 3 epochs after a warm-up, of the DEV001 shape of script."""
    torch.manual_seed(0)
    ds = torch.utils.data.TensorDataset(torch.randn(bs * steps, 3, 32, 32), torch.randint(0, 10, (bs * steps,)))
    loader = torch.utils.data.DataLoader(ds, batch_size=bs)
    model = Net()
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    crit = nn.CrossEntropyLoss()

    def epoch():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            crit(model(x), y).backward()
            opt.step()
        if device.type == "cuda":
            torch.cuda.synchronize()

    epoch()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        epoch()
        times.append(time.perf_counter() - t0)
    return bs * steps / sorted(times)[1]


cpu = samples_per_second(torch.device("cpu"))
gpu = samples_per_second(torch.device("cuda"))
print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, {torch.cuda.get_device_name(0)}")
print(f"DEV001 small CNN, batch 128: CPU {cpu:.0f} -> GPU {gpu:.0f} samples/s ({gpu / cpu:.1f}x)")

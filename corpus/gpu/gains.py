"""What gpuopt's rewrites gain on a GPU: each workload runs the code before
and after a rule's rewrite and reports the median time of repeated runs.

    python3 corpus/gpu/gains.py [--json OUT.json] [--only RULE,...]

Needs torch and numpy; CuPy for the XFER003/CUPY001 rows (skipped with a note
when it is missing). Times are wall-clock medians with the device synchronised
before each clock read, after warm-up. The numbers quoted in the rules'
documentation and the README come from this script (see .notes/gains-h100.txt).
"""

import argparse
import json
import sys

import numpy as np
import torch
from torch import nn

from timing import cpu_work, pair, timed

dev = torch.device("cuda")
rows = []


def report(rule, workload, before, after, unit="ms", note=""):
    gain = before / after if after > 0 else float("inf")
    rows.append(dict(rule=rule, workload=workload, before_ms=before * 1e3, after_ms=after * 1e3,
                     gain=gain, note=note))
    print(f"{rule:8} {workload:58} {before * 1e3:10.3f} -> {after * 1e3:10.3f} ms  {gain:8.2f}x  {note}",
          flush=True)


def mlp(width, depth):
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*layers).to(dev)


def convnet():
    """A ResNet-like stack of 3x3 convolutions (torchvision is not assumed)."""
    def block(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
    return nn.Sequential(block(3, 64, 2), block(64, 128, 2), block(128, 256, 2), block(256, 512, 2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)).to(dev)


# ---------------------------------------------------------------- XFER001
def xfer001():
    report("XFER001", "torch.zeros(4096, 4096).to(dev) vs device=dev",
           timed(lambda: torch.zeros(4096, 4096).to(dev), 20),
           timed(lambda: torch.zeros(4096, 4096, device=dev), 20))
    report("XFER001", "torch.randn(4096, 4096).to(dev) vs device=dev",
           timed(lambda: torch.randn(4096, 4096).to(dev), 10),
           timed(lambda: torch.randn(4096, 4096, device=dev), 10))


# ---------------------------------------------------------------- OPT001
def opt001():
    params = [nn.Parameter(torch.randn(1024, 512, device=dev)) for _ in range(200)]  # ~105M
    for p in params:
        p.grad = torch.randn_like(p)
    times = {}
    for name, kw in [("foreach", dict(foreach=True)), ("fused", dict(fused=True))]:
        opt = torch.optim.AdamW(params, lr=1e-4, **kw)
        times[name] = timed(opt.step, 30, warmup=3)
    report("OPT001", "AdamW step, 200 tensors, 105M params: foreach vs fused", times["foreach"], times["fused"])


# ---------------------------------------------------------------- AMP005, AMP003
def encoder_step(precision):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(1024, 16, 4096, batch_first=True)
    model = nn.TransformerEncoder(layer, 4).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    x = torch.randn(16, 512, 1024, device=dev)
    scaler = torch.amp.GradScaler("cuda", enabled=precision == "fp16")
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=dtype or torch.float32, enabled=dtype is not None):
            loss = model(x).float().pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    return step


def amp():
    torch.set_float32_matmul_precision("highest")
    fp32 = timed(encoder_step("fp32"), 10)
    torch.set_float32_matmul_precision("high")
    tf32 = timed(encoder_step("fp32"), 10)
    torch.set_float32_matmul_precision("highest")
    fp16 = timed(encoder_step("fp16"), 10)
    bf16 = timed(encoder_step("bf16"), 10)
    report("AMP005", "4-layer encoder d1024 seq512 bs16 step: fp32 vs TF32", fp32, tf32)
    report("AMP003", "same step: fp16 + GradScaler vs bf16 (scaler disabled)", fp16, bf16,
           note="bf16 removes the scaler, not time")
    report("AMP004", "same step: fp32 vs bf16 autocast", fp32, bf16)


# ---------------------------------------------------------------- SYNC001, SYNC002, SYNC003, SYNC004
def sync_rules():
    net = convnet().train()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    batches = [(torch.randn(32, 3, 128, 128, device=dev), torch.randint(0, 1000, (32,), device=dev))
               for _ in range(4)]
    crit = nn.CrossEntropyLoss()

    def train(after, steps=20):
        total = 0.0
        for i in range(steps):
            x, y = batches[i % 4]
            opt.zero_grad(set_to_none=True)
            loss = crit(net(x), y)
            loss.backward()
            opt.step()
            if after:
                total += loss.detach().double()
            else:
                total += loss.item()
            cpu_work(1.0)
        return float(total)
    report("SYNC002", "conv net train bs32 128px + 1 ms CPU work/step, 20 steps",
           *pair(lambda: train(False), lambda: train(True), 15))

    tiny = mlp(64, 2)
    topt = torch.optim.SGD(tiny.parameters(), lr=0.01)
    tx = torch.randn(32, 64, device=dev)

    def tiny_train(after, steps=200):
        total = 0.0
        for _ in range(steps):
            topt.zero_grad(set_to_none=True)
            loss = tiny(tx).pow(2).mean()
            loss.backward()
            topt.step()
            if after:
                total += loss.detach().double()
            else:
                total += loss.item()
        return float(total)
    report("SYNC002", "tiny MLP (launch-bound), 200 steps, no CPU work",
           *pair(lambda: tiny_train(False), lambda: tiny_train(True), 15),
           note="can be slower: the rule says when it pays")

    net.eval()
    evalx = [torch.randn(64, 3, 128, 128, device=dev) for _ in range(4)]

    def predict(after, steps=20):
        outs = []
        with torch.no_grad():
            for i in range(steps):
                out = net(evalx[i % 4])
                outs.append(out if after else out.cpu().numpy())
                cpu_work(1.0)
        return torch.cat(outs).cpu().numpy() if after else np.concatenate(outs)
    report("SYNC001", "conv net eval bs64 + 1 ms CPU work/step, 20 steps",
           *pair(lambda: predict(False), lambda: predict(True), 15))

    big = torch.randn(4096, 4096, device=dev)

    def move_large(after, steps=30):
        outs = []
        for _ in range(steps):
            out = big * 2
            outs.append(out if after else out.cpu().numpy())
        return torch.cat(outs).cpu().numpy() if after else np.concatenate(outs)
    report("SYNC001", "30 x 64 MB outputs, no CPU work per step",
           *pair(lambda: move_large(False), lambda: move_large(True), 5),
           note="large outputs only: can be slower, never a sure win")

    small = nn.Linear(1024, 1024).to(dev).eval()
    inputs = torch.randn(8192, 1024, device=dev)

    def tiny_large_outputs(after, steps=300):
        outs = []
        with torch.no_grad():
            for _ in range(steps):
                out = small(inputs)
                outs.append(out if after else out.cpu())
        return torch.cat(outs).cpu() if after else torch.cat(outs)
    report("SYNC001", "one Linear, 300 x 32 MB outputs, no CPU work per step",
           *pair(lambda: tiny_large_outputs(False), lambda: tiny_large_outputs(True), 5),
           note="large outputs only: can be slower, never a sure win")

    def mlp_steps(kind, steps=20):
        for _ in range(steps):
            topt.zero_grad(set_to_none=True)
            tiny(tx).pow(2).mean().backward()
            topt.step()
            if kind == "sync":
                torch.cuda.synchronize()
            elif kind == "empty_cache":
                torch.cuda.empty_cache()
    report("SYNC003", "tiny MLP 100 steps: synchronize() per step removed",
           *pair(lambda: mlp_steps("sync", 100), lambda: mlp_steps(None, 100), 30))
    report("SYNC004", "tiny MLP 100 steps: empty_cache() per step removed",
           *pair(lambda: mlp_steps("empty_cache", 100), lambda: mlp_steps(None, 100), 30))


# ---------------------------------------------------------------- VEC001, VEC002, VEC003
def vec_rules():
    lut = torch.randint(0, 64, (50000,), device=dev)
    table = torch.randn(64, 256, device=dev)
    ids = torch.randint(0, 50000, (4096,), device=dev)
    out = torch.empty(4096, 256, device=dev)

    def loop():
        for i, t in enumerate(ids):
            out[i] = table[lut[t]]

    def vectorised():
        out[:len(ids)] = table[lut[ids]]
    report("VEC001", "lookup loop over 4,096 ids vs one gather", timed(loop, 3, 1), timed(vectorised, 50))

    model = mlp(512, 4).eval()
    batch = torch.randn(256, 512, device=dev)
    with torch.no_grad():
        report("VEC002", "256 per-sample forwards vs one batched forward",
               timed(lambda: [model(x.unsqueeze(0)) for x in batch], 5), timed(lambda: model(batch), 50))

    n = 4096
    x, w, y = torch.randn(n, device=dev), torch.randn(n, device=dev), torch.empty(n, device=dev)

    def elementwise():
        for i in range(n):
            y[i] = x[i] * w[i] + 1.0

    def sliced():
        y[:n] = x[:n] * w[:n] + 1.0
    report("VEC003", "elementwise loop over 4,096 elements vs slices", timed(elementwise, 3, 1), timed(sliced, 50))


# ---------------------------------------------------------------- CACHE001
def cache001():
    T, d = 1024, 64
    q = torch.randn(8, T, d, device=dev)
    cached_mask = torch.triu(torch.ones(2048, 2048, device=dev, dtype=torch.bool), 1)
    cached_pos = torch.arange(2048, device=dev)

    def rebuilt():
        pos = torch.arange(T, device=dev)
        mask = torch.triu(torch.ones(T, T, device=dev), 1).bool()
        return q[:, pos[-1]], mask

    def cached():
        pos = cached_pos[:T]
        mask = cached_mask[:T, :T]
        return q[:, pos[-1]], mask
    report("CACHE001", "arange + causal mask T=1024 per forward vs cached slice", timed(rebuilt, 200), timed(cached, 200))


# ---------------------------------------------------------------- XFER003, CUPY001
def cupy_rules():
    try:
        import cupy as cp
    except ImportError:
        print("XFER003/CUPY001: cupy is not installed; skipped")
        return
    a = cp.random.rand(4096, 4096, dtype=cp.float32)
    report("XFER003", "cupy 4096x4096 -> torch: via NumPy vs torch.as_tensor",
           timed(lambda: torch.from_numpy(cp.asnumpy(a)).cuda(), 10),
           timed(lambda: torch.as_tensor(a, device="cuda"), 50))
    t = torch.randn(4096, 4096, device=dev)
    report("XFER003", "torch 4096x4096 -> cupy: via NumPy vs cp.asarray",
           timed(lambda: cp.asarray(t.cpu().numpy()), 10), timed(lambda: cp.asarray(t), 50))

    h = np.random.rand(10000, 1000).astype(np.float32)
    report("CUPY001", "10000x1000 @ its transpose: NumPy vs CuPy incl. copies",
           timed(lambda: h @ h.T, 3, 1), timed(lambda: cp.asnumpy((lambda g: g @ g.T)(cp.asarray(h))), 5))
    v = np.random.rand(10_000_000)

    def numpy_pipeline(m):
        z = (m - m.mean()) / m.std()
        return np.histogram(np.log1p(np.clip(z, 0, None)), bins=64)[0]

    def cupy_pipeline():
        g = cp.asarray(v)
        z = (g - g.mean()) / g.std()
        return cp.asnumpy(cp.histogram(cp.log1p(cp.clip(z, 0, None)), bins=64)[0])
    report("CUPY001", "standardise/clip/log1p/histogram, 10M floats, incl. copies",
           timed(lambda: numpy_pipeline(v), 5, 1), timed(cupy_pipeline, 10))


WORKLOADS = {"XFER001": xfer001, "OPT001": opt001, "AMP": amp, "SYNC": sync_rules, "VEC": vec_rules,
             "CACHE001": cache001, "CUPY": cupy_rules}

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("gains.py needs a CUDA GPU")
    print(f"{torch.cuda.get_device_name()} torch {torch.__version__} CUDA {torch.version.cuda}")
    for name, fn in WORKLOADS.items():
        if args.only and not any(name.startswith(o) or o.startswith(name) for o in args.only.split(",")):
            continue
        try:
            fn()
        except Exception as e:  # one failing workload must not hide the others
            print(f"{name}: FAILED {type(e).__name__}: {e}")
            rows.append(dict(rule=name, error=str(e)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__, rows=rows), f, indent=1)

"""OPT006: what the debugging modes left on in training scripts cost per
training step: autograd anomaly detection (torch.autograd.set_detect_anomaly
(True), the detect_anomaly() context, Lightning's Trainer(detect_anomaly=True))
and CUDA_LAUNCH_BLOCKING=1. Prints the median fp32 Adam step of four
workloads with the mode on and off; the rule's docs (patterns/docs/OPT006.md)
cite it.

    python corpus/gpu/opt006_debug_modes.py            # anomaly mode, then launch blocking
    python corpus/gpu/opt006_debug_modes.py --steps    # one process: step times only (internal)
"""
import json
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import pair, timed

DEV = "cuda"


def mlp():
    """A 3-layer MLP of width 512 at batch 256: a small model of many launches."""
    m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    return m.to(DEV), torch.randn(256, 784, device=DEV), torch.randint(0, 10, (256,), device=DEV), F.cross_entropy


def cnn():
    """A ResNet-like stack of 3x3 convolutions at batch 64 of 224x224 images."""
    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, 2, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
    m = nn.Sequential(block(3, 64), block(64, 128), block(128, 256), block(256, 512),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000))
    return m.to(DEV), torch.randn(64, 3, 224, 224, device=DEV), torch.randint(0, 1000, (64,), device=DEV), F.cross_entropy


def encoder():
    """A 4-layer transformer encoder (d=512, 8 heads) at batch 32 of 256 tokens."""
    layer = nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True)
    m = nn.TransformerEncoder(layer, 4)
    return m.to(DEV), torch.randn(32, 256, 512, device=DEV), torch.randn(32, 256, 512, device=DEV), F.mse_loss


def lstm():
    """A 2-layer LSTM of 256 over 64 steps at batch 64, a linear head."""
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTM(128, 256, 2, batch_first=True)
            self.out = nn.Linear(256, 10)

        def forward(self, x):
            y, _ = self.rnn(x)
            return self.out(y[:, -1])
    return Net().to(DEV), torch.randn(64, 64, 128, device=DEV), torch.randint(0, 10, (64,), device=DEV), F.cross_entropy


WORKLOADS = {"mlp": mlp, "cnn": cnn, "encoder": encoder, "lstm": lstm}


def step_fn(build):
    torch.manual_seed(0)
    model, x, y, loss_fn = build()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    return step


def anomaly():
    print("anomaly detection: median ms per training step, on -> off (alternating, 30 steps each)")
    for name, build in WORKLOADS.items():
        step = step_fn(build)

        def on():
            with torch.autograd.detect_anomaly():
                step()
        before, after = pair(on, step, 30, warmup=3)
        print(f"  {name:8s} {before * 1e3:8.2f} -> {after * 1e3:8.2f} ms  {before / after:5.2f}x")


def steps_only():
    out = {}
    for name, build in WORKLOADS.items():
        out[name] = timed(step_fn(build), 30, warmup=5) * 1e3
    print(json.dumps(out))


def launch_blocking():
    print("CUDA_LAUNCH_BLOCKING=1: median ms per training step, on -> off (separate processes, 3 rounds)")
    here = os.path.dirname(os.path.abspath(__file__))
    runs = {"1": [], "0": []}
    for _ in range(3):
        for flag in ("1", "0"):
            env = dict(os.environ, CUDA_LAUNCH_BLOCKING=flag)
            res = subprocess.run([sys.executable, os.path.join(here, "opt006_debug_modes.py"), "--steps"],
                                 env=env, capture_output=True, text=True, check=True)
            runs[flag].append(json.loads(res.stdout.strip().splitlines()[-1]))
    for name in WORKLOADS:
        on = sorted(r[name] for r in runs["1"])[1]
        off = sorted(r[name] for r in runs["0"])[1]
        print(f"  {name:8s} {on:8.2f} -> {off:8.2f} ms  {on / off:5.2f}x")


if __name__ == "__main__":
    if "--steps" in sys.argv:
        steps_only()
    else:
        print(torch.cuda.get_device_name(), "torch", torch.__version__, "CUDA", torch.version.cuda)
        anomaly()
        launch_blocking()

import argparse
import os

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--debug", action="store_true")
parser.add_argument("--detect-anomaly", action="store_true")
args = parser.parse_args()

# chosen per run: silent
if args.debug:
    torch.autograd.set_detect_anomaly(True)
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
torch.autograd.set_detect_anomaly(args.detect_anomaly)
torch.autograd.set_detect_anomaly(False)
os.environ["CUDA_LAUNCH_BLOCKING"] = "0"
mode = torch.autograd.set_detect_anomaly(True) if args.debug else None

model = nn.Sequential(nn.Linear(256, 2048), nn.ReLU(), nn.Linear(2048, 256)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
x = torch.randn(512, 256, device="cuda")
for step in range(20000):
    try:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    except RuntimeError:
        # rerun the failing step with anomaly mode to name the op
        with torch.autograd.detect_anomaly():
            model(x).pow(2).mean().backward()
        raise

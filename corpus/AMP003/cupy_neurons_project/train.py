# gpuopt-env: target-gpu=h100
# A spiking network trained with fp16 autocast and a GradScaler, whose
# neurons can run spikingjelly's CuPy kernels (`-cupy`). Those kernels
# take float32 and float16 only and raise NotImplementedError on bf16:
# fp16 with a scaler is the mixed precision this model runs, and AMP003
# is silent (blind sample S22C, where the bf16 switch broke `-amp -cupy`).
import argparse

import torch
from spikingjelly.activation_based import functional, neuron

from snn import SpikingNet

parser = argparse.ArgumentParser()
parser.add_argument("-cupy", action="store_true")
args = parser.parse_args()

model = SpikingNet()
functional.set_step_mode(model, "m")
if args.cupy:
    functional.set_backend(model, "cupy", instance=neuron.LIFNode)
model.cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
scaler = torch.amp.GradScaler("cuda")

for step in range(1000):
    frames = torch.rand(16, 32, 2, 64, 64, device="cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(frames).mean(0).pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    functional.reset_net(model)

# gpuopt-env: target-gpu=h100
# A step kept in full precision on purpose (blind sample S33AD's Wav2Lip:
# `with autocast(enabled=False):`): the networks do not run under
# autocast there, so channels_last has no tensor-core kernels to feed.
# Silent; the sync network, run under autocast, is reported.
import torch
import torchvision
from torch.cuda.amp import autocast

generator = torchvision.models.resnet50().cuda()
syncnet = torchvision.models.resnet18().cuda()  # want: MEM006
opt = torch.optim.Adam(list(generator.parameters()) + list(syncnet.parameters()), fused=True)
for step in range(1000):
    x = torch.randn(32, 3, 224, 224, device="cuda")
    with autocast(enabled=False):
        g = generator(x).float().mean()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=True):
        s = syncnet(x).mean()
    loss = g + s
    opt.zero_grad()
    loss.backward()
    opt.step()

# gpuopt-env: target-gpu=h100
# A discriminator wrapped in nn.DataParallel beside a generator the step
# calls by another name: a guard on the generator's modules would not see
# the discriminator's replicas, which would autocast in fp16 without a
# scaler. AMP004 reports the step with no fix.
import torch
import torch.nn as nn

netG = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
netD = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 1)).cuda()
netD = nn.DataParallel(netD)
opt = torch.optim.AdamW(netG.parameters(), fused=True)

for step in range(1000):
    z = torch.randn(512, 1024, device="cuda")
    fake = netG(z)  # want: AMP004
    loss = -netD(fake).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

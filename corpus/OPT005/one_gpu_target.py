# gpuopt-env: target-gpu=h100
# The profile is one H100. DataParallel over every visible GPU, or over
# range(--ngpu) with its default of one, calls the model directly there:
# nothing is replicated, DDP has nothing to gain, and the finding would
# say so itself (judged false 66 times since blind sample S26). Code that
# asks for several GPUs keeps the finding (several_gpus_flag.py); so does
# a machine whose profile has several, or none (ngpu_flag.py).
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--ngpu", type=int, default=1)
args = parser.parse_args()

encoder = nn.DataParallel(nn.Linear(1024, 1024).cuda())
decoder = nn.DataParallel(nn.Linear(1024, 10).cuda(), device_ids=range(args.ngpu))
critic = nn.DataParallel(nn.Linear(1024, 1).cuda(), device_ids=range(torch.cuda.device_count()))
params = list(encoder.parameters()) + list(decoder.parameters()) + list(critic.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)
for step in range(1000):
    x = torch.randn(256, 1024, device="cuda")
    loss = decoder(encoder(x)).sum() + critic(encoder(x)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

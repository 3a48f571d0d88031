# Device ids counted from a comma-separated --gpus flag whose default
# names one GPU (blind sample S29B's HDGan): one device unless the user
# lists more, so the wrapper calls the model directly. Silent. A default
# of two GPUs keeps the finding.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=str, default="0", help="which gpus, comma separated")
parser.add_argument("--eval_gpus", type=str, default="0,1")
args = parser.parse_args()

gpus = [a for a in range(len(args.gpus.split(",")))]
netD = nn.parallel.DataParallel(nn.Linear(1024, 1).cuda(), device_ids=range(len(gpus)))
eval_gpus = [a for a in range(len(args.eval_gpus.split(",")))]
netE = nn.parallel.DataParallel(nn.Linear(1024, 1).cuda(), device_ids=range(len(eval_gpus)))  # want: OPT005
optimizer = torch.optim.Adam(list(netD.parameters()) + list(netE.parameters()), fused=True)
for step in range(1000):
    x = torch.randn(64, 1024, device="cuda")
    loss = netD(x).mean() + netE(x).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# A grounding trainer that makes the GPUs of its --gpu flag visible, one
# ("0") by default (blind sample S23H): DataParallel then calls the module
# directly, so OPT005 stays silent on the plain wrap. The same wrap under
# `if torch.cuda.device_count() > 1:` is the path of a run with several
# GPUs listed (blind sample S18M's DABNet) and keeps the finding.
import argparse
import os

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=str, default="0")
parser.add_argument("--arch", type=str, default="a")
args = parser.parse_args()
os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu

if args.arch == "a":
    model = nn.DataParallel(nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10))).cuda()
elif torch.cuda.device_count() > 1:
    model = nn.DataParallel(nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10))).cuda()  # want: OPT005
else:
    model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(1000):
    x = torch.randn(256, 1024, device="cuda")
    loss = model(x).logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

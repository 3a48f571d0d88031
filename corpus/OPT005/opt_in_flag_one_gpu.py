# gpuopt-env: target-gpu=h100
# DataParallel the user opts into with --dp (off by default: blind sample
# S29E's vision-transformers-cifar10): on the one-H100 profile the wrap
# does not run, so OPT005 says nothing. A flag on by default keeps the
# finding.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--dp", action="store_true", help="use data parallel")
parser.add_argument("--parallel_head", type=bool, default=True)
args = parser.parse_args()

net = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 10)).cuda()
head = nn.Linear(10, 10).cuda()
if args.dp:
    net = nn.DataParallel(net)
if args.parallel_head:
    head = nn.DataParallel(head)  # want: OPT005
optimizer = torch.optim.AdamW(list(net.parameters()) + list(head.parameters()), fused=True)
for step in range(1000):
    loss = head(net(torch.randn(256, 1024, device="cuda"))).logsumexp(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

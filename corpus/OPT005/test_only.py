# A --testOnly branch wraps the loaded model and exits; an evaluation
# function wraps it under torch.no_grad(): both wrap for inference, where
# DDP's advice does not apply. The training wrap keeps its finding.
import argparse
import sys

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--testOnly", action="store_true")
args = parser.parse_args()
net = nn.Sequential(nn.Conv2d(3, 640, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(640, 10))


def evaluate(model, loader):
    with torch.no_grad():
        for x, y in loader:
            wrapped = nn.DataParallel(model) if x.size(0) > 10 else model
            wrapped(x.cuda())


if args.testOnly:
    net.load_state_dict(torch.load("checkpoint.t7"))
    net.cuda()
    net = torch.nn.DataParallel(net, device_ids=range(torch.cuda.device_count()))
    net.eval()
    evaluate(net, [])
    sys.exit(0)

net.cuda()
net = torch.nn.DataParallel(net, device_ids=range(torch.cuda.device_count()))  # want: OPT005
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(200):
    net.train()
    for x, y in []:
        loss = nn.functional.cross_entropy(net(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

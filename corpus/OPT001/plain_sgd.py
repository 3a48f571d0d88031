# Plain SGD (momentum 0, no weight decay) is one multi-tensor add in the
# default foreach step: fused=True measured 1.00-1.05x on an H100
# (.notes/opt001-sgd-h100.txt), so OPT001 says nothing of it. With
# momentum or weight decay the fused step gains, and the message says how
# much for which.
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--momentum", type=float, default=0.0)
parser.add_argument("--wd", type=float, default=5e-4)
parser.add_argument("--beta", type=float)
args = parser.parse_args()

model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)).cuda()
MOMENTUM = 0

plain = torch.optim.SGD(model.parameters(), lr=0.1)
plain_positional = torch.optim.SGD(model.parameters(), 0.1, 0, 0, 0)
plain_constant = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=MOMENTUM, weight_decay=0.0)
plain_flag = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

with_momentum = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)  # want: OPT001
with_decay_flag = torch.optim.SGD(model.parameters(), lr=0.1, momentum=args.momentum, weight_decay=args.wd)  # want: OPT001
with_both = torch.optim.SGD(model.parameters(), 0.1, 0.9, 0, 1e-4)  # want: OPT001
unknown = torch.optim.SGD(model.parameters(), lr=0.1, momentum=args.beta)  # want: OPT001
groups = torch.optim.SGD([{"params": model.parameters(), "momentum": 0.9}], lr=0.1)  # want: OPT001

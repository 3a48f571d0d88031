import argparse

import torch
from torch import nn

# The usual device line: CUDA when there is a GPU. From PyTorch 2.4 the
# fused step also runs on CPU parameters, so the fallback keeps working.
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 2).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)  # want: OPT001

# A chosen accelerator or the CPU, picked in two branches.
parser = argparse.ArgumentParser()
parser.add_argument("--cpu", action="store_true")
args = parser.parse_args()
if args.cpu:
    dev = torch.device("cpu")
else:
    dev = torch.accelerator.current_accelerator()
head = nn.Linear(2, 1).to(dev)
head_opt = torch.optim.SGD(head.parameters(), lr=0.1, momentum=0.9)  # want: OPT001

# Wrapped after the move: DataParallel keeps the parameters where they are.
net = nn.Linear(4, 4).to(device)
if torch.cuda.device_count() > 1:
    net = nn.DataParallel(net)
net_opt = torch.optim.Adam(net.parameters())  # want: OPT001

# Moved only when a GPU is there.
use_gpu = torch.cuda.is_available()
clf = nn.Linear(16, 4)
if use_gpu:
    clf = clf.cuda()
clf_opt = torch.optim.SGD(clf.parameters(), lr=0.01, momentum=0.9)  # want: OPT001

# Built in the branches of an if/else, moved in both.
if use_gpu:
    body = nn.Linear(16, 16).to(device)
else:
    body = nn.Sequential(nn.Linear(16, 16)).to(device)
body_opt = torch.optim.AdamW(body.parameters())  # want: OPT001

# Moved in place under a GPU test (`if opt.cuda: net.cuda()`, CycleGAN's
# train script): on CUDA when a GPU is there.
maybe = nn.Linear(8, 2)
if torch.cuda.is_available():
    maybe.cuda()
maybe_opt = torch.optim.Adam(maybe.parameters())  # want: OPT001

# gpuopt-env: target-gpu=h100
# A TCN of 25 channels, the width a command-line flag gives by default,
# built two modules away: its step is launch-bound (TCNs of 25 and 30
# channels ran 0.73-0.76x with autocast on an H100). Narrow at the flag's
# default, which is what the script runs: no finding (blind samples HH and
# OO judged the hedged hint false on such networks).
import argparse

import torch
import torch.nn.functional as F

from model import SequenceClassifier

parser = argparse.ArgumentParser()
parser.add_argument("--nhid", type=int, default=25, help="channels per level")
parser.add_argument("--levels", type=int, default=8)
parser.add_argument("--ksize", type=int, default=7)
args = parser.parse_args()

widths = [args.nhid] * args.levels
model = SequenceClassifier(1, 10, widths, args.ksize)
model = model.cuda()
opt = torch.optim.Adam(model.parameters(), lr=2e-3, fused=True)

for step in range(1000):
    x = torch.randn(64, 1, 784, device="cuda")
    y = torch.randint(0, 10, (64,), device="cuda")
    loss = F.nll_loss(model(x).log_softmax(-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

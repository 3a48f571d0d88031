# A resume branch builds an Adam and loads its state, then the code builds
# a new Adam unconditionally (blind sample S27D's ConvLSTM): the first one
# never steps, and only the second is reported. A resume branch whose
# optimizer is the one that trains keeps its finding.
import os

import torch
import torch.nn as nn
from torch import optim


def main(loader, save_dir, lr=1e-3):
    net = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
    if os.path.exists(os.path.join(save_dir, "checkpoint.pth.tar")):
        info = torch.load(os.path.join(save_dir, "checkpoint.pth.tar"))
        net.load_state_dict(info["state_dict"])
        optimizer = torch.optim.Adam(net.parameters())
        optimizer.load_state_dict(info["optimizer"])
    optimizer = optim.Adam(net.parameters(), lr=lr)  # want: OPT001
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = (net(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def resume(loader, path, lr=1e-3):
    net = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
    optimizer = optim.Adam(net.parameters(), lr=lr)  # want: OPT001
    if os.path.exists(path):
        optimizer = optim.Adam(net.parameters(), lr=lr)  # want: OPT001
        optimizer.load_state_dict(torch.load(path)["optimizer"])
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = (net(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

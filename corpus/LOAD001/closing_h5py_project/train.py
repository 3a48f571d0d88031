# gpuopt-env: cpus=16
# The HDF5 scene dataset entered through contextlib.closing (blind sample
# S35I's Deep-HDR): a dataset workers cannot serve, so no LOAD001 (whose
# fix would start workers over its open handles).
from contextlib import closing

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from scenes import Scenes


def train(paths, iterations=100000):
    model = nn.Sequential(nn.Conv2d(18, 100, 7), nn.ReLU(), nn.Conv2d(100, 3, 5)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    step = 0
    with closing(Scenes(paths)) as scenes:
        while step < iterations:
            loader = DataLoader(scenes, shuffle=True)
            for x, y in loader:
                x, y = x.cuda(), y.cuda()
                loss = nn.functional.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                step += 1

# A seeding helper that chooses determinism whenever CUDA is there
# (`if torch.cuda.is_available(): cudnn.deterministic = True; cudnn.benchmark
# = False`, blind sample S37AI's PMAES): on the GPU the branch always runs,
# so benchmark mode was turned off on purpose. Not reported.
import random

import numpy as np
import torch
import torch.nn as nn


def seed_all(seed):
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False


def train(loader, epochs, seed=42):
    seed_all(seed)
    model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 10, 3, padding=1)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = nn.functional.cross_entropy(model(x).mean((2, 3)), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

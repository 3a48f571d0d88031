# gpuopt-env: target-gpu=h100
# The script makes one GPU visible (the join of a one-element list) and
# wraps the model over the indices of that list: DataParallel over one
# device replicates nothing (blind sample S16A's EEG-Conformer).
import os

import torch
import torch.nn as nn

gpus = [0]
os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, gpus))


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Conv2d(1, 40, (1, 25)), nn.ELU(), nn.Conv2d(40, 40, (22, 1))).cuda()
        self.model = nn.DataParallel(self.model, device_ids=[i for i in range(len(gpus))])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-4)

    def train(self, loader):
        for epoch in range(2000):
            for x, y in loader:
                loss = self.model(x.cuda()).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

# A sign-language recogniser whose collate function pads each batch of
# clips to its longest (the lengths read from the items, then F.pad by
# `max_T - c.shape[0]`): the 3-D convolutions see a new shape nearly every
# batch, and cudnn.benchmark would time algorithms for each. No OPT003.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import collate_clips

model = nn.Sequential(nn.Conv3d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv3d(64, 3, 3, padding=1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)


def train(dataset):
    loader = DataLoader(dataset, batch_size=4, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True, collate_fn=collate_clips)
    for epoch in range(100):
        for batch in loader:
            crops = batch["crops"].cuda(non_blocking=True)
            loss = (model(crops) - crops).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

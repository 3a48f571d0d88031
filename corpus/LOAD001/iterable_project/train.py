"""Trains on archives streamed by a project module's IterableDataset,
star-imported (blind sample S19H's x-vectors): workers would replay every
batch once each, so LOAD001 leaves the loader alone."""
import torch
from torch.utils.data import DataLoader

from stream import *

model = torch.nn.Linear(512, 10).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(100):
    loader = DataLoader(ArchiveStream(f"egs.{step % 10}.npy"), batch_size=256, num_workers=0)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

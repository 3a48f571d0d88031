# Chunks of a pinned loader copied to the GPU and checked on the host at
# once (`assert max(labels) < n`, `if torch.isnan(feats).any():`): the
# host waits for each copy right after it, so non_blocking overlaps
# nothing there. The chunk whose first use is the forward pass is
# reported.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def train(model, optimizer, dataset, n_classes, device="cuda"):
    loader = DataLoader(dataset, batch_size=512, num_workers=4, pin_memory=True)
    for feats, labels in loader:
        labels = labels.to(device)
        feats = feats.to(device)
        try:
            assert max(labels) < n_classes and min(labels) >= 0
        except AssertionError:
            continue
        if torch.isnan(feats).any():
            continue
        loss = F.cross_entropy(model(feats), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def finetune(model, optimizer, dataset, device="cuda"):
    loader = DataLoader(dataset, batch_size=512, num_workers=4, pin_memory=True)
    for feats, labels in loader:
        feats = feats.to(device)  # want: XFER002
        labels = labels.to(device)  # want: XFER002
        if feats.shape[0] < 2:
            continue
        loss = F.cross_entropy(model(feats), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

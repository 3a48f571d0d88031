"""The training step, under fp16 autocast, stepped by utils.NativeScaler."""
import torch

from utils import NativeScaler


def train_one_epoch(model, loader, optimizer):
    loss_scaler = NativeScaler()
    for x, y in loader:
        with torch.cuda.amp.autocast():
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss_scaler(loss, optimizer)

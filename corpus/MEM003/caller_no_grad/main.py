import torch

import epoch_fn


def main(model, loader):
    with torch.no_grad():
        return epoch_fn.valid_one_epoch(model, loader, torch.nn.CrossEntropyLoss())

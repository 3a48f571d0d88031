# The data module of a PyTorch 0.3 project (train.py uses
# `loss.data[0]`): its DataLoader has no persistent_workers there
# (TypeError), so no finding, though train.py iterates it every epoch.
import torch
from torch.utils.data import DataLoader, TensorDataset


def get_loader(n, batch_size=128):
    dataset = TensorDataset(torch.randn(n, 2048), torch.randn(n, 3000))
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=8, pin_memory=True)

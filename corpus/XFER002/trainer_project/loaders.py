# A project split in modules: the loaders are built here, the training
# loop lives in engine.py, and run.py wires them together.
from torch.utils.data import DataLoader


def make_loader(dataset, batch_size, shuffle=True):
    # Pinned host memory: the batches can be copied asynchronously.
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, pin_memory=True, num_workers=4)


def make_plain_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, num_workers=4)

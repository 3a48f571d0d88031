# Loader factories; the loops that use them live in train.py and stats.py.
from torch.utils.data import DataLoader


def get_loader(dataset, batch_size):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)  # want: LOAD001
    return loader


def get_eval_loader(dataset, batch_size, num_workers=0):
    # Every caller asks for num_workers=0: their choice.
    return DataLoader(dataset, batch_size=batch_size, num_workers=num_workers)


def get_stats_loader(dataset):
    # Only stats.py, which never touches a GPU, iterates it.
    return DataLoader(dataset, batch_size=1024)


def get_class_loader(dataset):
    return DataLoader(dataset, batch_size=32, shuffle=True)  # want: LOAD001

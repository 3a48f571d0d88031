# Loader factories of a project. The training script calls the first one
# inside its epoch loop, so each epoch gets a new DataLoader and new
# workers whatever persistent_workers says: the rule is silent on it
# (blind sample S33E's EEGNet). The second is called once, before the
# epochs, and its workers restart every epoch: reported.
from torch.utils.data import DataLoader, TensorDataset


def epoch_loader(x, y, batch_size=64, num_workers=2):
    data = TensorDataset(x, y)
    return DataLoader(data, batch_size=batch_size, shuffle=True, num_workers=num_workers, pin_memory=True)


def eval_loader(x, y, batch_size=256, num_workers=2):
    data = TensorDataset(x, y)
    return DataLoader(data, batch_size=batch_size, num_workers=num_workers, pin_memory=True)  # want: LOAD003

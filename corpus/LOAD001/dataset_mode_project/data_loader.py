"""A dataset with two splits that one loader serves in turn: the solver
switches `dataset.mode` between passes (blind sample S19B's DAGMM)."""
import numpy as np
from torch.utils.data import DataLoader, Dataset


class SplitLoader(Dataset):
    def __init__(self, path, mode="train"):
        data = np.load(path)
        self.mode = mode
        self.train = data[: len(data) // 2]
        self.test = data[len(data) // 2 :]

    def __len__(self):
        return len(self.train) if self.mode == "train" else len(self.test)

    def __getitem__(self, index):
        if self.mode == "train":
            return np.float32(self.train[index])
        return np.float32(self.test[index])


def get_loader(path, batch_size, mode="train"):
    """Build and return the data loader."""
    dataset = SplitLoader(path, mode)
    data_loader = DataLoader(dataset=dataset, batch_size=batch_size, shuffle=mode == "train")  # want: LOAD001
    return data_loader

# A dataset that augments the sequences it is handed, and one that reads
# its pairs from files.
import torch
from torch.utils.data import Dataset


class ContactMaps(Dataset):
    def __init__(self, sequences, contacts, augment=None):
        self.sequences = sequences
        self.contacts = contacts
        self.augment = augment

    def __len__(self):
        return len(self.sequences)

    def __getitem__(self, i):
        x = self.sequences[i]
        if self.augment is not None:
            x = self.augment(x)
        return x, self.contacts[i]


class Pairs(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        pair = torch.load(self.paths[i])
        return pair["first"], pair["second"], pair["label"]


def collate(batch):
    return [list(items) for items in zip(*batch)]

import torch.utils.data

from data.paired_dataset import PairedDataset


class DatasetLoader:
    """Wraps the dataset and its DataLoader; train.py iterates it."""

    def __init__(self, opt):
        self.opt = opt
        self.dataset = PairedDataset(opt)
        self.dataloader = torch.utils.data.DataLoader(
            self.dataset,
            batch_size=opt.batch_size,
            shuffle=True,
            num_workers=int(opt.num_threads),
        )

    def __len__(self):
        return len(self.dataset)

    def __iter__(self):
        for data in self.dataloader:
            yield data


def create_dataset(opt):
    return DatasetLoader(opt)

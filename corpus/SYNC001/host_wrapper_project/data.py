# A loader of the project that wraps torch's DataLoader (length
# bucketing): its batches are the wrapped loader's, on the host.
from torch.utils.data import DataLoader


class BucketingDataLoader(object):
    def __init__(self, dataset, batch_size=1, shuffle=False):
        self.loader = DataLoader(dataset, batch_size=batch_size * 100, shuffle=shuffle)
        self.batch_size = batch_size

    def __iter__(self):
        for big in self.loader:
            for i in range(0, len(big[0]), self.batch_size):
                yield [t[i:i + self.batch_size] for t in big]

from torchtext.legacy import data


class SQuAD:
    def __init__(self, path, batch_size, device):
        self.WORD = data.Field(batch_first=True, include_lengths=True)
        self.train, self.dev = data.TabularDataset.splits(path=path, train="train.jsonl", validation="dev.jsonl", format="json", fields={})
        self.train_iter, self.dev_iter = data.BucketIterator.splits(
            (self.train, self.dev), batch_sizes=[batch_size, batch_size], device=device, sort_key=lambda x: len(x.c_word)
        )

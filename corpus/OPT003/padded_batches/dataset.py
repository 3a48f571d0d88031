import numpy as np
import torch


def collate_utterances(batch, reduction):
    # Every batch is padded to its own longest utterance: its shape
    # changes from one batch to the next.
    lengths = [item.shape[-1] for item in batch]
    longest = max(lengths)
    longest += -longest % reduction
    padded = np.stack([np.pad(item, ((0, 0), (0, longest - item.shape[-1]))) for item in batch])
    return torch.from_numpy(padded)


def collate_captions(data):
    # The captions are padded to the longest, the images stacked as they
    # come: the convolutions see one shape.
    images, captions = zip(*data)
    images = torch.stack(images, 0)
    lengths = [len(cap) for cap in captions]
    targets = torch.zeros(len(captions), max(lengths)).long()
    for i, cap in enumerate(captions):
        targets[i, : lengths[i]] = cap[: lengths[i]]
    return images, targets, lengths

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


def collate_clips(batch):
    # Video clips padded to the batch's longest, the lengths read from a
    # field of each item (blind sample S38C's sign-language recogniser):
    # the frame count changes from batch to batch.
    import torch.nn.functional as F

    clips = [item["crops"] for item in batch]
    input_lengths = [item["input_length"] for item in batch]
    max_T = max(input_lengths)
    crops = torch.stack([F.pad(c, (0, 0, 0, 0, 0, 0, 0, max_T - c.shape[0])) for c in clips])
    return {"crops": crops, "input_lengths": torch.tensor(input_lengths)}

# A featurizer that pads a batch of proteins into host arrays: each row
# is a copy of a sequence's coordinates, so the data has to cross to the
# GPU whatever builds the matrix (blind sample S33I's ProteinMPNN and
# Struct2Seq, six findings judged false). Silent. A target matrix of ones
# set by index, beside it, is reported.
import numpy as np
import torch


def featurize(batch, n_labels, device):
    lengths = [len(b["seq"]) for b in batch]
    L_max = max(lengths)
    X = np.zeros([len(batch), L_max, 4, 3])
    mask = np.zeros([len(batch), L_max])
    labels = np.zeros((len(batch), n_labels))  # want: XFER001
    for i, b in enumerate(batch):
        l = len(b["seq"])
        X[i, :l] = np.stack([b["coords"][c] for c in ["N", "CA", "C", "O"]], 1)
        mask[i, :l] = 1.0
        labels[i, b["labels"]] = 1
    X = torch.from_numpy(X).float().to(device)
    mask = torch.from_numpy(mask).float().to(device)
    labels = torch.from_numpy(labels).float().to(device)
    return X, mask, labels


def train(model, optimizer, batches, device="cuda"):
    for epoch in range(100):
        for batch in batches:
            X, mask, labels = featurize(batch, 1000, device)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(X, mask), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

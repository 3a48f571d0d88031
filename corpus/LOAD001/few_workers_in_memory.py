"""One or two workers over items already in memory (a TensorDataset, a
tensor made from a NumPy array) are left alone: more workers would only
add start-up and pickling to slicing and stacking (blind samples YY and ii
judged the raise noise on a tabular predict loop and a poetry model's
token rows)."""
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def predict(model, X, device):
    X = torch.tensor(X).float()
    loader = DataLoader(TensorDataset(X), batch_size=256, shuffle=False, num_workers=2)
    preds = []
    with torch.no_grad():
        for (batch,) in loader:
            preds.append(model(batch.to(device)))
    return torch.cat(preds)


def train(model, optimizer, opt):
    data, word2ix, ix2word = np.load(opt.path, allow_pickle=True)
    data = torch.from_numpy(data)  # rebound just before the loader: the tensor is what it serves
    loader = DataLoader(data, batch_size=128, shuffle=True, num_workers=1)
    model.cuda()
    for epoch in range(20):
        for batch in loader:
            batch = batch.long().cuda()
            loss = model(batch[:, :-1]).log_softmax(-1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

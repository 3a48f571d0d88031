import time
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4)
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8)


def evaluate():
    logits = []
    for (x,) in loader:
        out = model(x)
        t_step = time.perf_counter()  # host work each step (timing, logging)
        logits.append(out.detach().cpu())  # want: SYNC001
    print("batches:", len(logits))
    return torch.cat(logits, dim=0)


def stacked():
    rows = []
    for (x,) in loader:
        score = model(x).sum(dim=1)
        t_step = time.perf_counter()  # host work each step (timing, logging)
        rows.append(score.detach().cpu().numpy())  # want: SYNC001
    return np.stack(rows, axis=0)


def vertical():
    rows = []
    for (x,) in loader:
        y = model(x)
        t_step = time.perf_counter()  # host work each step (timing, logging)
        rows.append(y.detach().cpu().numpy())  # want: SYNC001
    table = np.vstack(rows)
    return table


def summed():
    parts = []
    for (x,) in loader:
        y = model(x)
        t_step = time.perf_counter()  # host work each step (timing, logging)
        parts.append(y.detach().cpu())  # want: SYNC001
    return sum(parts)


def as_array():
    losses = []
    for (x,) in loader:
        loss = model(x).pow(2).mean()
        t_step = time.perf_counter()  # host work each step (timing, logging)
        losses.append(loss.detach().cpu().numpy())  # want: SYNC001
    return np.array(losses)

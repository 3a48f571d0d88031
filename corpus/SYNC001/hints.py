import time
import json

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4)
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8)

# tolist(): the consumer sees Python numbers: a hint, no fix.
labels = []
for (x,) in loader:
    labels.extend(model(x).argmax(1).tolist())
scores = []
for (x,) in loader:
    t_step = time.perf_counter()  # host work each step (timing, logging)
    scores.append(model(x).max().tolist())  # want: SYNC001
print(sum(scores))

# extend() of a per-step .cpu() conversion (Kaggle's fin_outputs.extend(...)):
# a hint, no fix.
probs = []
for (x,) in loader:
    t_step = time.perf_counter()  # host work each step (timing, logging)
    probs.extend(torch.sigmoid(model(x)).cpu().detach().numpy().tolist())  # want: SYNC001
print(len(probs))

# Unknown consumer: hint only.
outs = []
for (x,) in loader:
    y = model(x)
    t_step = time.perf_counter()  # host work each step (timing, logging)
    outs.append(y.detach().cpu().numpy())  # want: SYNC001
json.dump([o.tolist() for o in outs], open("out.json", "w"))

# A buffer reused every step: appending it would alias every entry.
buf = torch.empty(8, 4)
kept = []
for (x,) in loader:
    buf.copy_(model(x))
    t_step = time.perf_counter()  # host work each step (timing, logging)
    kept.append(buf.cpu())  # want: SYNC001
res = torch.cat(kept)

# Consumer with an extra argument gpuopt does not map (dtype): hint.
vals = []
for (x,) in loader:
    v = model(x)
    t_step = time.perf_counter()  # host work each step (timing, logging)
    vals.append(v.detach().cpu().numpy())  # want: SYNC001
arr = np.array(vals, dtype=np.float64)

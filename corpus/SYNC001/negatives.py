import time
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4)
loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8)
data = [torch.randn(8, 16) for _ in range(4)]

# Not a hot loop: no model forward, no DataLoader.
cpu_copies = []
for t in data:
    cpu_copies.append(t.cpu())
joined = torch.cat(cpu_copies)

# Already on the host: .numpy() alone does not synchronise.
host = []
for (x,) in loader:
    host.append(x.numpy())
stacked = np.concatenate(host)

# The list is read inside the loop (printed every step).
seen = []
for (x,) in loader:
    y = model(x)
    seen.append(y.detach().cpu())
    print(seen[-1])
final = torch.cat(seen)

# Not a list created empty before the loop: a hint without a fix.
def collect(acc):
    for (x,) in loader:
        t_step = time.perf_counter()  # host work each step (timing, logging)
        acc.append(model(x).detach().cpu())  # want: SYNC001
    return torch.cat(acc)

# Appends something other than a conversion.
raw = []
for (x,) in loader:
    raw.append(model(x))
out = torch.cat(raw)

# The step waits anyway: the loss is read on the host every step
# (losses.append(loss.item())), so appending the outputs on the device
# saves no synchronisation.
losses, outputs = [], []
for (x,) in loader:
    out = model(x)
    loss = out.mean()
    losses.append(loss.item())
    outputs.append(out.detach().cpu())
kept = torch.cat(outputs)

# A loss read only every 10 steps leaves the other steps free: reported.
logged = []
for step, (x,) in enumerate(loader):
    out = model(x)
    if step % 10 == 0:
        print(out.mean().item())
    t_step = time.perf_counter()  # host work each step (timing, logging)
    logged.append(out.detach().cpu())  # want: SYNC001
all_logged = torch.cat(logged)

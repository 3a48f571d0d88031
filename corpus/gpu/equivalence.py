"""Before/after equivalence of gpuopt's SYNC001, SYNC002, VEC001 and VEC002
rewrites (issue 5). Each check runs the ORIGINAL code of a corpus case and the
code gpuopt rewrote it into (the .golden file) on the same inputs and compares
the results. Runs on CUDA when available, else on the CPU.

    python3 corpus/gpu/equivalence.py

Needs torch and numpy only. Exit status 1 when any check fails.
"""

import sys

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
results = []


def check(rule, case, ok, detail=""):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {rule} {case} ({device}){': ' + detail if detail else ''}")


# ---------------------------------------------------------------- SYNC001
# corpus/SYNC001/seed_predictions.py and consumers.py
model = nn.Linear(16, 4).to(device)
loader = DataLoader(TensorDataset(torch.randn(64, 16), torch.zeros(64)), batch_size=8)


def sync001_before():
    predictions = []
    with torch.no_grad():
        for inputs, _ in loader:
            outputs = model(inputs.to(device))
            predictions.append(outputs.cpu().numpy())
    predictions = np.concatenate(predictions)
    return predictions


def sync001_after():
    predictions = []
    with torch.no_grad():
        for inputs, _ in loader:
            outputs = model(inputs.to(device))
            predictions.append(outputs)
    predictions = torch.cat(predictions).cpu().numpy()
    return predictions


a, b = sync001_before(), sync001_after()
check("SYNC001", "seed np.concatenate", a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b))

loader1 = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8)


def consumers(after):
    logits, rows, vrows, parts, losses = [], [], [], [], []
    for (x,) in loader1:
        x = x.to(device)
        out = model(x)
        logits.append(out.detach() if after else out.detach().cpu())
        score = model(x).sum(dim=1)
        rows.append(score.detach() if after else score.detach().cpu().numpy())
        y = model(x)
        vrows.append(y.detach() if after else y.detach().cpu().numpy())
        parts.append(y.detach() if after else y.detach().cpu())
        loss = model(x).pow(2).mean()
        losses.append(loss.detach() if after else loss.detach().cpu().numpy())
    if after:
        return (torch.cat(logits, dim=0).cpu(), torch.stack(rows, dim=0).cpu().numpy(),
                torch.vstack(vrows).cpu().numpy(), sum(parts).cpu(), torch.stack(losses).cpu().numpy())
    return (torch.cat(logits, dim=0), np.stack(rows, axis=0), np.vstack(vrows), sum(parts), np.array(losses))


before, after = consumers(False), consumers(True)
for name, x, y in zip(["torch.cat", "np.stack", "np.vstack", "sum", "np.array"], before, after):
    if isinstance(x, torch.Tensor):
        ok = isinstance(y, torch.Tensor) and y.device.type == "cpu" and x.dtype == y.dtype and torch.equal(x, y)
    else:
        ok = isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
    check("SYNC001", name, ok)

# ---------------------------------------------------------------- SYNC002
# corpus/SYNC002/train.py: float64 accumulation on the device is the same
# sequence of additions Python's float makes.
data = TensorDataset(torch.randn(64, 16), torch.randint(0, 4, (64,)))
criterion = nn.CrossEntropyLoss()


def sync002(after):
    torch.manual_seed(1)
    net = nn.Linear(16, 4).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    ld = DataLoader(data, batch_size=8)
    epochs = []
    for epoch in range(3):
        running_loss = 0.0
        weighted = 0.0
        for x, y in ld:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            loss = criterion(net(x), y)
            loss.backward()
            opt.step()
            if after:
                running_loss += loss.detach().double()
                weighted += loss.detach().double() * x.size(0)
            else:
                running_loss += loss.item()
                weighted += loss.item() * x.size(0)
        if after:
            running_loss = float(running_loss)
            weighted = float(weighted)
        epochs.append((running_loss / len(ld), weighted))
    return epochs


a, b = sync002(False), sync002(True)
check("SYNC002", "running loss", all(type(p) is float and type(q) is float for e in b for p, q in [e]) and a == b,
      f"{a[-1]} vs {b[-1]}")

# Zero iterations: the total stays the float it started as.
total = 0.0
for x in []:
    total += x.detach().double()
total = float(total)
check("SYNC002", "empty loop", total == 0.0 and type(total) is float)

# ---------------------------------------------------------------- VEC001
# corpus/VEC001/seed_lookup.py and function.py


def vec001(after, ids_dims=1):
    g = torch.Generator().manual_seed(2)
    vocab_size, num_types, dim = 100, 8, 16
    token_to_type = torch.randint(0, num_types, (vocab_size,), generator=g).to(device)
    type_embeddings = torch.randn(num_types, dim, generator=g).to(device)
    shape = (32,) if ids_dims == 1 else (32, 3)
    input_ids = torch.randint(0, vocab_size, shape, generator=g).to(device)
    embeddings = torch.zeros(*((40, dim) if ids_dims == 1 else (40, 3, dim)), device=device)
    if after:
        embeddings[:len(input_ids)] = type_embeddings[token_to_type[input_ids]]
    else:
        for i, token_id in enumerate(input_ids):
            type_id = token_to_type[token_id]
            embeddings[i] = type_embeddings[type_id]
    return embeddings


check("VEC001", "seed lookup (1-D ids, larger buffer)", torch.equal(vec001(False), vec001(True)))
check("VEC001", "2-D ids", torch.equal(vec001(False, 2), vec001(True, 2)))


def chain(after):
    g = torch.Generator().manual_seed(3)
    lut = torch.randint(0, 10, (10,), generator=g).to(device)
    table = torch.randn(10, 5, generator=g).to(device)
    ids = torch.randint(0, 10, (20,), generator=g).to(device)
    out = torch.zeros(20, 5, dtype=torch.float64, device=device)
    if after:
        out[:len(ids)] = table[lut[lut[ids]]]
    else:
        for k, v in enumerate(ids):
            out[k] = table[lut[lut[v]]]
    return out


x, y = chain(False), chain(True)
check("VEC001", "lookup chain (float64 out keeps its dtype)", x.dtype == y.dtype == torch.float64 and torch.equal(x, y))

# ---------------------------------------------------------------- VEC002
# corpus/VEC002/seed_batched.py and variants.py
torch.manual_seed(4)
mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device).eval()
batch = torch.randn(8, 16, device=device)
with torch.no_grad():
    outputs = [mlp(x.unsqueeze(0)) for x in batch]
    before = torch.cat(outputs)
    outputs = mlp(batch)
    after = outputs
ok = before.shape == after.shape and torch.allclose(before, after, rtol=1e-5, atol=1e-6)
check("VEC002", "seed per-sample vs batched", ok, f"max abs diff {(before - after).abs().max().item():.2e}")

with torch.no_grad():
    rows = [mlp(s[None]) for s in batch]
    before = torch.cat(rows, dim=0)
    after = mlp(batch)
check("VEC002", "x[None] + torch.cat(dim=0)", before.shape == after.shape and torch.allclose(before, after, rtol=1e-5, atol=1e-6))

print(f"{sum(results)}/{len(results)} checks passed on {device} (torch {torch.__version__})")
sys.exit(0 if all(results) else 1)

"""Before/after equivalence of gpuopt's SYNC001, SYNC002, VEC001, VEC002 and
VEC003 rewrites (issue 5). Each check runs the ORIGINAL code of a corpus case
and the code gpuopt rewrote it into (the .golden file) on the same inputs and
compares the results. The VEC003 checks read the corpus files themselves: the
whole case and its .golden run on the same seeded inputs, then every function
the case defines is called on the same random arguments. Runs on CUDA when
available, else on the CPU.

    python3 corpus/gpu/equivalence.py

Needs torch and numpy only. Exit status 1 when any check fails.
"""

import os
import sys
import typing

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

# ---------------------------------------------------------------- VEC003
# corpus/VEC003/*.py and their .golden files, executed as they are.
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def run_case(path):
    """Runs a corpus file with seeded inputs and torch's default device set
    to the checked device; returns its arrays and what each function it
    defines leaves in its (seeded, random) arguments."""
    torch.manual_seed(5)
    np.random.seed(5)
    ns = {"__name__": "vec003_case", "print": lambda *a, **k: None}
    previous = torch.get_default_device()
    torch.set_default_device(device)
    try:
        exec(compile(open(path).read(), path, "exec"), ns)
        values = {k: v for k, v in ns.items() if isinstance(v, (torch.Tensor, np.ndarray))}
        for name, fn in sorted(ns.items()):
            if not callable(fn) or getattr(fn, "__module__", None) != "vec003_case":
                continue
            hints = typing.get_type_hints(fn)
            args = []
            for i, p in enumerate(fn.__code__.co_varnames[:fn.__code__.co_argcount]):
                t = hints.get(p)
                if t is torch.Tensor:
                    args.append(torch.randn(37, generator=torch.Generator(device).manual_seed(i + 1), device=device))
                elif t is np.ndarray:
                    args.append(np.random.default_rng(i + 1).standard_normal(37))
                else:
                    args.append(37)
            ret = fn(*args)
            for i, a in enumerate(args + [ret]):
                if isinstance(a, (torch.Tensor, np.ndarray)):
                    values[f"{name}()[{i}]"] = a
    finally:
        torch.set_default_device(previous)
    return values


def same(a, b):
    """Equal arrays (type, dtype, shape, device); values exactly or within a
    last-bit tolerance (vectorised kernels may round differently)."""
    if type(a) is not type(b) or a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        return False, "type, dtype or shape differs"
    if isinstance(a, torch.Tensor):
        if a.device != b.device:
            return False, "device differs"
        if torch.equal(a, b):
            return True, ""
        d = (a - b).abs().max().item()
        return torch.allclose(a, b, rtol=1e-6, atol=1e-7), f"max abs diff {d:.1e}"
    if np.array_equal(a, b):
        return True, ""
    d = float(np.abs(a - b).max())
    return np.allclose(a, b, rtol=1e-12, atol=1e-12), f"max abs diff {d:.1e}"


for case in sorted(os.listdir(os.path.join(CORPUS, "VEC003"))):
    if not case.endswith(".py") or not os.path.exists(os.path.join(CORPUS, "VEC003", case + ".golden")):
        continue
    path = os.path.join(CORPUS, "VEC003", case)
    if "negatives" in case:
        continue  # silent cases; some need a CUDA device and torch/NumPy mixes on purpose
    before, after = run_case(path), run_case(path + ".golden")
    if sorted(before) != sorted(after) or not before:
        check("VEC003", case, False, f"arrays differ: {sorted(before)} vs {sorted(after)}")
        continue
    for name in sorted(before):
        ok, detail = same(before[name], after[name])
        check("VEC003", f"{case} {name}", ok, detail)

print(f"{sum(results)}/{len(results)} checks passed on {device} (torch {torch.__version__})")
sys.exit(0 if all(results) else 1)

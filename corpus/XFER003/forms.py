import cupy
import numpy as np
import torch as th
from cupy import asnumpy

device = th.device("cuda")


def forward(a: cupy.ndarray, b: cupy.ndarray, idx):
    t1 = th.from_numpy(asnumpy(a @ b)).to(device)  # want: XFER003
    t2 = th.tensor(cupy.asnumpy(a), device="cuda")  # want: XFER003
    t3 = th.as_tensor(cupy.asnumpy(a * 2), dtype=th.float32, device=device)  # want: XFER003
    t4 = th.tensor(a.get()).cuda(0)  # want: XFER003
    t5 = th.from_numpy(cupy.asnumpy(a[idx])).to("cuda", non_blocking=True)  # want: XFER003
    t6 = th.from_numpy(cupy.asnumpy(cupy.zeros((3, 3), dtype=cupy.float16))).cuda()  # want: XFER003
    return t1, t2, t3, t4, t5, t6


def unknown_source(x):
    # x may not be a CuPy array: cp.asnumpy(list) would change the dtype.
    return th.from_numpy(cupy.asnumpy(x)).cuda()  # want: XFER003


def reverse(model, batch):
    logits = model(batch)
    probs = cupy.array(logits.detach().cpu().numpy(), dtype=cupy.float32)  # want: XFER003
    feats = cupy.asarray(logits.cpu().detach().numpy())  # want: XFER003
    return probs, feats

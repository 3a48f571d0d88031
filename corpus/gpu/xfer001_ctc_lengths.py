"""XFER001 on CTC loss lengths: where should `input_lengths` and
`target_lengths` live when the log-probabilities are on the GPU?

Blind sample S39B's CRNN captcha reader builds `torch.full((B,), T)` on the
CPU and moves it to the GPU every step; XFER001 told it to build the
lengths there (device=). This checks, with torch's sync debug mode, whether
ctc_loss synchronises with the device for lengths on the GPU and on the
CPU, and times a CRNN-sized step (a BiGRU over T=75 frames, 37 classes,
targets of 5 characters) with the lengths built on the CPU and left there,
built on the CPU and moved (the code as written), and built on the GPU
(XFER001's old advice). Prints the sync warnings and median ms per step.

    python corpus/gpu/xfer001_ctc_lengths.py
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import timed

DEV = "cuda"
B, T, C, S = 64, 75, 37, 5
STEPS = 50
REPS = 7


def lengths(where):
    if where == "cpu":
        return torch.full((B,), T, dtype=torch.long), torch.full((B,), S, dtype=torch.long)
    if where == "moved":
        return torch.full((B,), T, dtype=torch.long).to(DEV), torch.full((B,), S, dtype=torch.long).to(DEV)
    return torch.full((B,), T, dtype=torch.long, device=DEV), torch.full((B,), S, dtype=torch.long, device=DEV)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    rnn = nn.GRU(256, 256, num_layers=2, bidirectional=True).to(DEV)
    head = nn.Linear(512, C).to(DEV)
    opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-4)
    x = torch.randn(T, B, 256, device=DEV)
    targets = torch.randint(1, C, (B * S,), device=DEV)

    def step(where):
        il, tl = lengths(where)
        out, _ = rnn(x)
        logp = F.log_softmax(head(out), 2)
        loss = F.ctc_loss(logp, targets, il, tl)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    for where in ("cpu", "moved", "device"):
        step(where)
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("warn")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            step(where)
        torch.cuda.set_sync_debug_mode("default")
        syncs = [str(w.message).split("\n")[0] for w in caught if "synchroniz" in str(w.message).lower()]
        print(f"lengths {where:6s}: {len(syncs)} synchronizing operation(s) in one step", syncs[:3])
    for where in ("cpu", "moved", "device"):
        t = timed(lambda: [step(where) for _ in range(STEPS)], REPS)
        print(f"lengths {where:6s}: {t / STEPS * 1e3:.3f} ms a step")


if __name__ == "__main__":
    main()

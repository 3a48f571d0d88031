"""Timing helpers shared by the GPU scripts in corpus/gpu (gains.py,
xfer003_sync005.py, amp004_narrow.py, amp005_cudnn.py,
opt004_recurrent.py): wall-clock medians with the CUDA device
synchronised before each clock read, after warm-up."""

import statistics
import time

import torch


def sync():
    torch.cuda.synchronize()


def timed(fn, reps, warmup=2):
    """Median seconds of fn() over reps runs, the device synchronised around each."""
    for _ in range(warmup):
        fn()
    sync()
    samples = []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def pair(before, after, reps, warmup=2):
    """Median seconds of before() and after(), run alternately so that drift
    (clocks, caches, other tenants) falls on both sides alike."""
    for _ in range(warmup):
        before()
        after()
    samples = ([], [])
    for _ in range(reps):
        for fn, out in ((before, samples[0]), (after, samples[1])):
            sync()
            t0 = time.perf_counter()
            fn()
            sync()
            out.append(time.perf_counter() - t0)
    return statistics.median(samples[0]), statistics.median(samples[1])


def cpu_work(ms):
    """Busy CPU work standing in for per-step host code (logging, metrics, decoding)."""
    end = time.perf_counter() + ms / 1e3
    while time.perf_counter() < end:
        pass


def train_step_ms(model, x, y, loss_fn, steps, bf16=False, warmup=10):
    """Median milliseconds of one Adam training step of model on (x, y),
    the forward and loss under bf16 autocast when bf16 is set."""
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
            loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return timed(step, steps, warmup=warmup) * 1e3

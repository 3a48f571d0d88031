"""Effect-harness shim, loaded by Python at start-up (sitecustomize) when
corpus/effect/shim is on PYTHONPATH. It changes nothing a training script
computes; it only watches and measures:

* steps: every ``Tensor.backward`` call is a training step; a script that
  never calls backward (an evaluation loop) counts the batches its
  DataLoaders yield instead. The device is synchronised at step WARMUP and at
  step WARMUP+MEASURE, and the wall time between the two, divided by
  MEASURE, is the steady-state time per step: start-up, data set creation,
  cuDNN autotuning, torch.compile and the first steps fall outside it. With
  EFFECT_STOP set the script is ended (SystemExit) at that step, so every
  variant of a script runs the same number of steps.
* loss: the value each backward starts from (the unscaled loss where a
  GradScaler scaled it), and for evaluation the values torch's loss
  functions return with gradients off; the mean of the last EFFECT_LAST of
  each is reported, with its standard error. Values stay on the device
  until exit: no extra syncs.
* peak memory: torch.cuda.max_memory_allocated() at exit.
* seeds: torch is seeded with EFFECT_SEED_OFFSET at start-up and the
  offset is added to every torch.manual_seed call, so two runs of the
  original with offsets 0 and 1 measure the run-to-run noise of the loss.
* data: with EFFECT_SYNTH=1, torchvision's MNIST, FashionMNIST, CIFAR10 and
  CIFAR100 become synthetic data sets of the same size, shape and type
  (uint8 images decoded through PIL like the real ones, labels learnable
  from class prototypes), since the GPU machine has no network (the driver
  points TORCH_HOME at randomly initialised "pretrained" weights).

The result is one JSON object written to EFFECT_OUT at exit.
"""

import atexit
import collections
import json
import os
import sys
import time

_OUT = os.environ.get("EFFECT_OUT")
if _OUT:
    import torch

    _WARMUP = int(os.environ.get("EFFECT_WARMUP", "20"))
    _MEASURE = int(os.environ.get("EFFECT_MEASURE", "50"))
    _STOP = int(os.environ.get("EFFECT_STOP", "0"))
    _LAST = int(os.environ.get("EFFECT_LAST", "20"))
    _SEED = int(os.environ.get("EFFECT_SEED_OFFSET", "0"))
    _PID = os.getpid()
    _cuda = torch.cuda.is_available()

    class _Counter:
        def __init__(self, name):
            self.name, self.n, self.t0, self.t1 = name, 0, None, None

        def tick(self):
            self.n += 1
            if self.n == _WARMUP or self.n == _WARMUP + _MEASURE:
                if _cuda:
                    torch.cuda.synchronize()
                now = time.perf_counter()
                if self.n == _WARMUP:
                    self.t0 = now
                else:
                    self.t1 = now

        def ms(self):
            if self.t0 is None or self.t1 is None:
                return None
            return (self.t1 - self.t0) * 1e3 / _MEASURE

    _steps = _Counter("backward")
    _batches = _Counter("batch")
    _train_loss = collections.deque(maxlen=_LAST)
    _eval_loss = collections.deque(maxlen=_LAST)
    _t_start = time.perf_counter()
    _stopped = [False]

    def _maybe_stop(counter):
        # Ends the process at once: a SystemExit would wait on the shutdown
        # of persistent DataLoader workers (tens of seconds) and run the
        # script's own post-training code.
        if _STOP and counter.n >= _STOP and not _stopped[0] and os.getpid() == _PID:
            _stopped[0] = True
            _report()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)

    _backward = torch.Tensor.backward

    def backward(self, *args, **kwargs):
        r = _backward(self, *args, **kwargs)
        if os.getpid() == _PID:
            src = getattr(self, "_effect_unscaled", self)
            if src.numel() == 1:
                _train_loss.append(src.detach().float().reshape(()))
            _steps.tick()
            _maybe_stop(_steps)
        return r

    torch.Tensor.backward = backward

    def _wrap_scale(cls):
        scale = cls.scale

        def scaled(self, outputs):
            out = scale(self, outputs)
            if isinstance(out, torch.Tensor) and out is not outputs:
                try:
                    out._effect_unscaled = outputs
                except Exception:
                    pass
            return out

        cls.scale = scaled

    try:
        _wrap_scale(torch.amp.GradScaler)
    except AttributeError:
        pass

    import torch.nn.functional as F

    def _wrap_loss(name):
        fn = getattr(F, name, None)
        if fn is None:
            return

        def loss(*args, **kwargs):
            r = fn(*args, **kwargs)
            if not torch.is_grad_enabled() and isinstance(r, torch.Tensor) and r.numel() == 1:
                _eval_loss.append(r.detach().float().reshape(()))
            return r

        loss.__name__ = fn.__name__
        loss.__doc__ = fn.__doc__
        setattr(F, name, loss)

    for _name in ("cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss",
                  "binary_cross_entropy", "binary_cross_entropy_with_logits"):
        _wrap_loss(_name)

    from torch.utils.data import DataLoader

    _dl_iter = DataLoader.__iter__

    def _iter(self):
        it = _dl_iter(self)
        if os.getpid() != _PID:
            return it

        def gen():
            for item in it:
                _batches.tick()
                if _steps.n == 0:
                    _maybe_stop(_batches)
                yield item

        return gen()

    DataLoader.__iter__ = _iter

    # Scripts that never seed (regression/main.py) start from the same
    # state in every variant but orig2.
    torch.manual_seed(_SEED)

    if _SEED:
        _manual_seed = torch.manual_seed

        def manual_seed(seed):
            return _manual_seed(int(seed) + _SEED)

        torch.manual_seed = manual_seed
        torch.random.manual_seed = manual_seed

    def _mean(values):
        if not values:
            return None
        return float(torch.stack([v.to("cpu") for v in values]).mean())

    def _stderr(values):
        # The standard error of that mean: how far it moves with the
        # batches drawn, one part of the run-to-run noise.
        if len(values) < 2:
            return None
        t = torch.stack([v.to("cpu") for v in values]).double()
        return float(t.std() / len(values) ** 0.5)

    def _report():
        if os.getpid() != _PID:
            return
        counter = _steps if _steps.n > 0 else _batches
        res = {
            "unit": counter.name,
            "steps": counter.n,
            "ms_per_step": counter.ms(),
            "train_loss": _mean(_train_loss),
            "eval_loss": _mean(_eval_loss),
            "train_loss_se": _stderr(_train_loss),
            "eval_loss_se": _stderr(_eval_loss),
            "peak_mem_mb": torch.cuda.max_memory_allocated() / 2**20 if _cuda else None,
            "wall_s": time.perf_counter() - _t_start,
            "stopped": _stopped[0],
            "seed_offset": _SEED,
        }
        with open(_OUT, "w") as f:
            json.dump(res, f)

    atexit.register(_report)

    if os.environ.get("EFFECT_SYNTH") == "1":
        try:
            import torchvision.datasets as _tvd
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import effect_synth

            effect_synth.install(_tvd)
        except ImportError as e:
            print("effect shim: no synthetic data sets:", e, file=sys.stderr)

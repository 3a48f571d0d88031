"""Before/after check of CUPY001's code actions (issue 5): every
corpus/CUPY001/<case>.py with a .hint.golden runs as written (NumPy) and as
gpuopt's code action rewrote it (CuPy), in a scratch folder, and the module
globals and printed output are compared (float32 to 1e-4 relative: the
two libraries sum in different orders; histogram counts may move a few
samples to a neighbouring bin). CuPy's random generators are
replaced by NumPy's (seeded alike, copied to the GPU) so both runs draw the
same numbers; everything else is real CuPy. Also times the catalog's two
CUPY001 workloads.

    python3 corpus/gpu/cupy001.py

Needs numpy, cupy and torch with CUDA. Exit status 1 when a check fails.
"""

import contextlib
import glob
import io
import os
import sys
import tempfile
import time

import numpy as np

try:
    import cupy as cp
except ImportError:
    print("cupy is not installed; skipped")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = sorted(glob.glob(os.path.join(HERE, "..", "CUPY001", "*.py.hint.golden")))
failed = 0


def same_random():
    """Make cp.random draw NumPy's numbers (seeded as NumPy is)."""
    for name in ("rand", "randn", "random", "random_sample", "standard_normal", "uniform", "normal", "randint"):
        np_fn = getattr(np.random, name)
        setattr(cp.random, name, lambda *a, _f=np_fn, **k: cp.asarray(_f(*a, **k)))


def run(path, src):
    np.random.seed(0)
    out = io.StringIO()
    g = {"__name__": "__main__", "__file__": path}
    with tempfile.TemporaryDirectory() as d, contextlib.chdir(d), contextlib.redirect_stdout(out):
        exec(compile(src, path, "exec"), g)
    return g, out.getvalue()


def host(v):
    if isinstance(v, cp.ndarray):
        return cp.asnumpy(v)
    if type(v).__module__ == "torch":
        return v.detach().cpu().numpy()
    return v


same_random()
for golden in CASES:
    case = golden[: -len(".hint.golden")]
    name = os.path.relpath(case, os.path.join(HERE, ".."))
    before, after = open(case).read(), open(golden).read()
    try:
        gb, ob = run(case, before)
        ga, oa = run(case, after)
    except Exception as e:  # noqa: BLE001
        print(f"FAIL {name}: {type(e).__name__}: {e}")
        failed += 1
        continue
    bad, notes = [], []
    for k, vb in gb.items():
        if k.startswith("__") or callable(vb) or type(vb).__name__ == "module":
            continue
        hb, ha = host(vb), host(ga.get(k))
        if isinstance(hb, np.ndarray):
            if not isinstance(ha, np.ndarray) or ha.shape != hb.shape or ha.dtype != hb.dtype:
                bad.append(k)
            elif hb.dtype.kind == "f" and not np.allclose(ha, hb, rtol=1e-4 if hb.dtype == np.float32 else 1e-7, atol=1e-5, equal_nan=True):
                bad.append(k)
            elif hb.dtype.kind in "iu" and np.abs(ha.astype(np.int64) - hb).sum() > 1e-4 * max(1, np.abs(hb).sum()):
                bad.append(k)  # counts: a few samples may fall in the neighbouring bin
            elif hb.dtype.kind in "iu" and (ha != hb).any():
                notes.append(f"{k}: {np.abs(ha.astype(np.int64) - hb).sum()} of {np.abs(hb).sum()} counted in a neighbouring bin")
        elif hb != ha:
            bad.append(k)
    if ob != oa and not notes:
        bad.append(f"stdout {ob!r} != {oa!r}")
    calls = [k for k in gb if callable(gb[k]) and k in ("make_batch", "positions")]
    for k in calls:  # gpu_feed.py's functions
        args = (1000, 8) if k == "make_batch" else (1000,)
        np.random.seed(1)
        tb = host(gb[k](*args))
        np.random.seed(1)
        ta = host(ga[k](*args))
        if tb.shape != ta.shape or not np.allclose(tb, ta):
            bad.append(k + "()")
    print(("FAIL " if bad else "PASS ") + name + (": differs in " + ", ".join(bad) if bad else "") + ("; " + "; ".join(notes) if notes else ""))
    failed += bool(bad)


def timed(fn, n=5):
    fn()
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2] * 1e3


x = np.random.randn(10000, 1000)
xg = cp.asarray(x)
print(f"matmul 10000x1000 @ T: numpy {timed(lambda: x @ x.T):.1f} ms, "
      f"cupy {timed(lambda: xg @ xg.T):.1f} ms, "
      f"cupy with copies {timed(lambda: cp.asnumpy(cp.asarray(x) @ cp.asarray(x).T)):.1f} ms")
v = np.random.standard_normal(10_000_000).astype(np.float32)


def prep(xp, a):
    z = xp.clip((a - a.mean()) / a.std(), -3.0, 3.0)
    f = xp.log1p(z - z.min())
    return xp.histogram(f, bins=64)[0]


print(f"standardise/clip/log1p/histogram 10M: numpy {timed(lambda: prep(np, v)):.1f} ms, "
      f"cupy incl. copies {timed(lambda: cp.asnumpy(prep(cp, cp.asarray(v)))):.1f} ms")
sys.exit(1 if failed else 0)

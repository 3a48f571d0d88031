#!/usr/bin/env python3
"""Effect harness: does `gpuopt fix` make real training scripts faster?

For every script of a manifest (manifest.json beside this file) it runs, on
this machine's GPU and one after the other:

  orig    the script as published (seed offset 0)
  gpuopt  the script after `gpuopt fix --unsafe-fixes --target-gpu <gpu>`
  byhand  the script as a GPU engineer following the seeds would change it
          (full replacement files under --byhand/<name>/, kept outside the
          project; the changes are listed in .notes/effect-byhand.md)
  orig2   the script as published again, with seed offset 1: the distance
          between orig's and orig2's loss is the run-to-run noise

and, when --variants names them, ablations for A/B runs: gpuopt-AMP004
(or gpuopt-AMP004+XFER002) is gpuopt's fix without those rules
(`--ignore AMP004,XFER002`), to find which change makes a row slower or
faster. A variant may repeat (orig,gpuopt,orig,gpuopt): each run is a line.
A suffix @N runs a variant with seed offset N (orig@2, gpuopt@1), for a
wider estimate of the loss noise than orig and orig2 give.

each with the same command line, through the shim in shim/ (steady-state
time per step between two synchronised steps, peak GPU memory, final loss),
and prints a table. Scripts are copied from --src/<owner>+<repo>/<dir>
(clones at the manifest's commits, made outside the project) into a scratch
directory; nothing is written into --src.

  python3 corpus/effect/effect.py --src /tmp/src --byhand .devbin/byhand \
      --gpuopt .devbin/gpuopt --out results.jsonl [--only mnist,wlm]
"""

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("orig", "gpuopt", "byhand", "orig2")


def zipf_words(path, n_tokens, vocab, seed, line_len=20):
    """A text file of n_tokens words w0..w{vocab-1} drawn from a Zipf law,
    line_len words a line: the shape of wikitext-2 / PTB with no download."""
    import numpy as np

    rng = np.random.default_rng(seed)
    ranks = np.arange(1, vocab + 1)
    p = 1.0 / ranks
    p /= p.sum()
    ids = rng.choice(vocab, size=n_tokens, p=p)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for i in range(0, n_tokens, line_len):
            f.write(" " + " ".join("w%d" % t for t in ids[i:i + line_len]) + " \n")


def prepare_data(kind, run_dir, env):
    """Synthetic stand-ins for the data a script would download or read."""
    if not kind:
        return
    if kind == "wikitext2":
        d = os.path.join(run_dir, "data", "wikitext-2")
        zipf_words(os.path.join(d, "train.txt"), 600_000, 20000, 1)
        zipf_words(os.path.join(d, "valid.txt"), 100_000, 20000, 2)
        zipf_words(os.path.join(d, "test.txt"), 100_000, 20000, 3)
    elif kind == "ptb":
        zipf_words(os.path.join(run_dir, "data", "train.txt"), 500_000, 10000, 1)
    elif kind == "nanogpt-char":
        import numpy as np, pickle

        d = os.path.join(run_dir, "data", "shakespeare_char")
        os.makedirs(d, exist_ok=True)
        rng = np.random.default_rng(0)
        for split, n in (("train", 1_000_000), ("val", 100_000)):
            rng.integers(0, 65, n, dtype=np.uint16).tofile(os.path.join(d, split + ".bin"))
        with open(os.path.join(d, "meta.pkl"), "wb") as f:
            pickle.dump({"vocab_size": 65}, f)
    elif kind.startswith("weights:"):
        # randomly initialised "pretrained" weights where torchvision would
        # download them (TORCH_HOME/hub/checkpoints/<file of the URL>)
        arch = kind.split(":", 1)[1]
        home = os.path.join(tempfile.gettempdir(), "effect-torch-home")
        code = (
            "import os, torch, torchvision\n"
            "torch.manual_seed(0)\n"
            "sd = torchvision.models.get_model(%r).state_dict()\n"
            "for w in torchvision.models.get_model_weights(%r):\n"
            "    p = os.path.join(%r, 'hub', 'checkpoints', os.path.basename(w.url))\n"
            "    os.makedirs(os.path.dirname(p), exist_ok=True)\n"
            "    os.path.exists(p) or torch.save(sd, p)\n"
        ) % (arch, arch, home)
        subprocess.run([sys.executable, "-c", code], check=True)
        env["TORCH_HOME"] = home
    else:
        raise SystemExit("unknown data kind " + kind)


def copy_script(args, entry, variant, scratch):
    src = os.path.join(args.src, entry["repo"].replace("/", "+"), entry.get("dir", ""))
    if entry["repo"] == "gpuopt":
        src = os.path.join(HERE, "..", entry.get("dir", ""))
    run_dir = os.path.join(scratch, entry["name"], variant)
    n = 1
    while os.path.exists(run_dir):  # a repeated variant of an A/B run
        n += 1
        run_dir = os.path.join(scratch, entry["name"], "%s.%d" % (variant, n))
    shutil.copytree(src, run_dir, ignore=shutil.ignore_patterns(".git", "data", "__pycache__"))
    return run_dir


def seed_offset(variant):
    """The seed offset of a variant: 1 for orig2, N for a suffix @N."""
    if variant == "orig2":
        return 1
    _, at, n = variant.partition("@")
    return int(n) if at else 0


def ignored(variant):
    """The rule codes an ablation variant leaves out: gpuopt-AMP004+XFER002
    -> ["AMP004", "XFER002"]; none for plain gpuopt."""
    _, _, codes = variant.partition("@")[0].partition("-")
    return [c for c in codes.split("+") if c]


def gpuopt_fix(args, entry, run_dir, log, ignore=()):
    """Runs gpuopt on the copy: findings before, the fix (without the rules
    in ignore), the diff."""
    files = entry.get("fix", [entry["script"]])
    base = [args.gpuopt]
    target = ["--target-gpu", args.target_gpu]
    if ignore:
        target += ["--ignore", ",".join(ignore)]
    before = {f: open(os.path.join(run_dir, f)).read() for f in files}
    check = subprocess.run(base + ["check", "--output-format", "json"] + target + files,
                           cwd=run_dir, capture_output=True, text=True)
    fix = subprocess.run(base + ["fix", "--unsafe-fixes"] + target + files,
                         cwd=run_dir, capture_output=True, text=True)
    after = subprocess.run(base + ["check", "--output-format", "json"] + target + files,
                           cwd=run_dir, capture_output=True, text=True)
    diff = []
    for f in files:
        new = open(os.path.join(run_dir, f)).read()
        diff += difflib.unified_diff(before[f].splitlines(True), new.splitlines(True), "a/" + f, "b/" + f)
    log.write("### %s gpuopt fix (rc %d)\n%s%s\n" % (entry["name"], fix.returncode, fix.stdout[-2000:], fix.stderr[-2000:]))
    log.write("".join(diff) + "\n")

    def codes(res):
        try:
            data = json.loads(res.stdout)
        except ValueError:
            return ["?" + res.stderr[-200:]]
        items = data if isinstance(data, list) else data.get("findings", [])
        return sorted("%s:%s" % (x.get("code"), (x.get("location") or {}).get("row", x.get("line", ""))) for x in items)

    return {"found": codes(check), "left": codes(after), "applied": applied_codes(fix.stdout + fix.stderr),
            "diff_lines": sum(1 for l in diff if l[:1] in "+-" and l[:3] not in ("+++", "---"))}


def applied_codes(fix_output):
    """The codes `gpuopt fix` reports applying ("Fixed 10 findings in 1 file
    (AMP004 ×2, MEM006 ×2, ...)"), every round included: a rule that fires
    only after another's fix (MEM006 after AMP004's autocast) is in it,
    unlike the difference between the checks before and after."""
    import re

    m = re.search(r"Fixed \d+ findings? in \d+ files? \(([^)]*)\)", fix_output)
    if not m:
        return []
    out = []
    for part in m.group(1).split(","):
        code, _, n = part.strip().partition(" ×")
        out += [code] * (int(n) if n else 1)
    return out


def overlay_byhand(args, entry, run_dir):
    d = os.path.join(args.byhand, entry["name"])
    if not os.path.isdir(d):
        return False
    for root, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), d)
            shutil.copyfile(os.path.join(root, f), os.path.join(run_dir, rel))
    return True


def run_variant(args, entry, variant, scratch, log):
    run_dir = copy_script(args, entry, variant, scratch)
    env = dict(os.environ)
    info = {"name": entry["name"], "variant": variant}
    prepare_data(entry.get("data"), run_dir, env)
    if variant.partition("@")[0] == "gpuopt" or variant.startswith("gpuopt-"):
        info.update(gpuopt_fix(args, entry, run_dir, log, ignored(variant)))
    if variant == "byhand" and not overlay_byhand(args, entry, run_dir):
        info["error"] = "no by-hand version"
        return info
    out = os.path.join(run_dir, "effect.json")
    env.update({
        "PYTHONPATH": os.path.join(HERE, "shim") + os.pathsep + env.get("PYTHONPATH", ""),
        "PYTHONUNBUFFERED": "1",
        "EFFECT_OUT": out,
        "EFFECT_WARMUP": str(entry["warmup"]),
        "EFFECT_MEASURE": str(entry["measure"]),
        "EFFECT_STOP": str(entry.get("stop", entry["warmup"] + entry["measure"])),
        "EFFECT_LAST": str(entry.get("last", 20)),
        "EFFECT_SEED_OFFSET": str(seed_offset(variant)),
        "EFFECT_SYNTH": "1",
    })
    cmd = [sys.executable, entry["script"]] + entry.get("args", [])
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True, timeout=args.timeout)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = "timeout", (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace")
    info["rc"] = rc
    info["wall_s"] = round(time.perf_counter() - t0, 1)
    log.write("### %s %s rc=%s %.1fs\n$ %s\n%s\n%s\n" % (entry["name"], variant, rc, info["wall_s"], " ".join(cmd), stdout[-1500:], stderr[-2500:]))
    log.flush()
    if os.path.exists(out):
        info.update(json.load(open(out)))
    return info


def loss_of(r):
    return r.get("train_loss") if r.get("train_loss") is not None else r.get("eval_loss")


def loss_se(r):
    """The standard error of loss_of(r) (None for runs before it was kept)."""
    return r.get("train_loss_se") if r.get("train_loss") is not None else r.get("eval_loss_se")


def within_noise(x, se_x, o, o2, se_o, se_o2, spread=0.0):
    """Whether loss x is within the noise of the original's two runs o, o2
    (seeds 0 and 1). The noise band is the largest of these estimates: the
    distance between the two seeds (init and data order), the spread of the
    original's losses over repeated runs (spread, when orig or orig2 ran
    more than once), and twice the standard error of the difference of two
    means of the last steps' losses (the batches drawn), from x's run and
    the original's."""
    band = max(abs(o - o2), spread)
    ses = [e for e in (se_x, se_o, se_o2) if e is not None]
    if len(ses) == 3:
        band = max(band, 2 * (se_x ** 2 + (se_o ** 2 + se_o2 ** 2) / 4) ** 0.5)
    return abs(x - (o + o2) / 2) <= band


def merge_runs(runs):
    """One row's variant from its runs: a single run as it is; repeated
    runs (an A/B over alternating runs) as their mean time per step and
    mean loss (the loss's standard error that of the mean), the largest
    peak memory, and n_runs."""
    if len(runs) == 1:
        return runs[0]
    import statistics

    out = dict(runs[-1], n_runs=len(runs))
    timed = [r["ms_per_step"] for r in runs if r.get("ms_per_step")]
    out["ms_per_step"] = statistics.mean(timed) if timed else None
    for key, se_key in (("train_loss", "train_loss_se"), ("eval_loss", "eval_loss_se")):
        vals = [r[key] for r in runs if r.get(key) is not None]
        out[key] = statistics.mean(vals) if vals else None
        ses = [r[se_key] for r in runs if r.get(se_key) is not None]
        out[se_key] = (sum(e * e for e in ses) ** 0.5 / len(ses)) if ses and len(ses) == len(vals) else None
    mems = [r["peak_mem_mb"] for r in runs if r.get("peak_mem_mb")]
    out["peak_mem_mb"] = max(mems) if mems else None
    return out


def fixed_codes(g):
    """The rule codes whose findings gpuopt's fix removed, with counts."""
    import collections

    if "applied" in g:
        n = collections.Counter(g["applied"])
        return " ".join(c + ("×%d" % n[c] if n[c] > 1 else "") for c in sorted(n)) or "nothing"
    before = collections.Counter(c.split(":")[0] for c in g.get("found", []))
    after = collections.Counter(c.split(":")[0] for c in g.get("left", []))
    out = []
    for code in sorted(before):
        n = before[code] - after.get(code, 0)
        if n > 0:
            out.append(code + ("×%d" % n if n > 1 else ""))
    return " ".join(out) or "nothing"


def table(results, manifest=None):
    """The Markdown table of a run, and the issue's criteria over the
    public scripts (repo other than gpuopt)."""
    import statistics

    by, spread = {}, {}
    for r in results:
        by.setdefault(r["name"], {}).setdefault(r["variant"], []).append(r)
    for name, vs in by.items():
        ls = [loss_of(x) for k in ("orig", "orig2") for x in vs.get(k, []) if loss_of(x) is not None]
        spread[name] = max(ls) - min(ls) if len(ls) > 2 else 0.0
        by[name] = {k: merge_runs(runs) for k, runs in vs.items()}
    public = {e["name"] for e in (manifest or []) if e.get("repo") != "gpuopt"}
    rows = ["| script | ms/step orig | gpuopt | by hand | gpuopt ÷ by hand | loss orig / orig2 / gpuopt / by hand | within noise (gpuopt, by hand) | peak MB orig → gpuopt → by hand | gpuopt fixed |",
            "|---|---|---|---|---|---|---|---|---|"]
    sg, ratio, slow, outside = [], [], [], []
    for name, v in by.items():
        o, g, h, o2 = (v.get(k, {}) for k in VARIANTS)
        t = [x.get("ms_per_step") for x in (o, g, h, o2)]
        if not t[0]:
            rows.append("| %s | failed (rc %s) | | | | | | | |" % (name, o.get("rc")))
            continue
        ran = [bool(x) for x in (o, g, h, o2)]
        runs = lambda x: " (n=%d)" % x["n_runs"] if x.get("n_runs") else ""  # a mean over repeated runs
        vs = (o, g, h, o2)
        sp = lambda x, i: "%.2f%s (%.2f×)" % (x, runs(vs[i]), t[0] / x) if x else ("failed" if ran[i] else "not run")
        r = (t[0] / t[1]) / (t[0] / t[2]) if t[1] and t[2] else None
        ls = [loss_of(x) for x in (o, o2, g, h)]
        fmt = lambda x: "%.4g" % x if x is not None else "—"
        within = "—"
        if None not in ls[:2]:
            se = [loss_se(x) for x in (o, o2, g, h)]
            flags = ["yes" if x is not None and within_noise(x, e, ls[0], ls[1], se[0], se[1], spread[name]) else "NO"
                     for x, e in zip(ls[2:], se[2:])]
            within = ", ".join(flags)
            if name in public and flags[0] != "yes":
                outside.append(name)
        mem = " → ".join("%.0f" % x["peak_mem_mb"] if x.get("peak_mem_mb") else "—" for x in (o, g, h))
        rows.append("| %s | %.2f%s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, t[0], runs(o), sp(t[1], 1), sp(t[2], 2), "%.2f" % r if r else "—",
            " / ".join(fmt(x) for x in ls), within, mem, fixed_codes(g)))
        if name in public and t[1]:
            sg.append(t[0] / t[1])
            if r:
                ratio.append(r)
            if t[0] / t[1] < 0.97:
                slow.append(name)
    lines = ["\n".join(rows)]
    if sg:
        lines.append("public scripts: %d; median gpuopt speed-up %.2f× (goal ≥ 1.5×); median gpuopt ÷ by-hand speed-up %.2f (goal ≥ 0.90); "
                     "slower than 0.97×: %s; loss outside the noise: %s" % (
                         len(sg), statistics.median(sg), statistics.median(ratio) if ratio else float("nan"),
                         ", ".join(slow) or "none", ", ".join(outside) or "none"))
    return "\n\n".join(lines)


def ab_summary(results):
    """For A/B runs (variants repeated, ablations): per script and variant,
    the times per step of every run, their mean, and the mean's ratio to
    orig's mean."""
    import statistics

    by, losses = {}, {}
    for r in results:
        if r.get("ms_per_step"):
            by.setdefault(r["name"], {}).setdefault(r["variant"], []).append(r["ms_per_step"])
            if loss_of(r) is not None:
                losses.setdefault((r["name"], r["variant"]), []).append(loss_of(r))
    lines = []
    for name, variants in by.items():
        base = statistics.mean(variants["orig"]) if "orig" in variants else None
        for v, ts in variants.items():
            m = statistics.mean(ts)
            vs = " (%.2f× orig)" % (base / m) if base and v != "orig" else ""
            ls = losses.get((name, v), [])
            lines.append("%s %s: mean %.2f ms/step over %d runs%s; runs %s%s" % (
                name, v, m, len(ts), vs, " ".join("%.2f" % t for t in ts),
                "; loss " + " ".join("%.4g" % x for x in ls) if ls else ""))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--src", help="directory of clones named owner+repo")
    ap.add_argument("--byhand", help="directory of by-hand files, one folder per script")
    ap.add_argument("--gpuopt", help="the gpuopt binary")
    ap.add_argument("--target-gpu", default="h100")
    ap.add_argument("--out", default="effect.jsonl")
    ap.add_argument("--log", default="effect.log")
    ap.add_argument("--only", default="")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--timeout", type=int, default=180)
    ap.add_argument("--quick", action="store_true", help="a smoke test: 5 warm-up and 10 measured steps")
    ap.add_argument("--table", metavar="JSONL", help="print the table of earlier results and exit")
    ap.add_argument("--ab", metavar="JSONL", help="print the A/B summary of earlier results (every run of every variant) and exit")
    args = ap.parse_args()
    if args.ab:
        print(ab_summary([json.loads(l) for l in open(args.ab) if l.strip()]))
        return
    if args.table:
        print(table([json.loads(l) for l in open(args.table) if l.strip()], json.load(open(args.manifest))))
        return
    args.gpuopt = os.path.abspath(args.gpuopt)
    args.src, args.byhand = os.path.abspath(args.src), os.path.abspath(args.byhand)
    manifest = json.load(open(args.manifest))
    only = set(filter(None, args.only.split(",")))
    scratch = tempfile.mkdtemp(prefix="effect-")
    results = []
    with open(args.out, "a") as out, open(args.log, "a") as log:
        for entry in manifest:
            if only and entry["name"] not in only:
                continue
            if args.quick:
                entry = dict(entry, warmup=5, measure=10)
                entry.pop("stop", None)
            for variant in args.variants.split(","):
                r = run_variant(args, entry, variant, scratch, log)
                results.append(r)
                out.write(json.dumps(r) + "\n")
                out.flush()
                print(json.dumps(r), flush=True)
    print(table(results, manifest))
    if len(results) > len({(r["name"], r["variant"]) for r in results}) or any("-" in r["variant"] for r in results):
        print(ab_summary(results))


if __name__ == "__main__":
    main()
